/*
 * client: placeholder; see client.h.
 */
#include "client.h"
