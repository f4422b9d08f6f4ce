/*
 * agentctl: placeholder; see agentctl.h.
 */
#include "agentctl.h"
