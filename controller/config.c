/*
 * config: placeholder; see config.h.
 */
#include "config.h"
