/*
 * stats: placeholder; see stats.h.
 */
#include "stats.h"
