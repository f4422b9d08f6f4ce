/*
 * kernel: placeholder; see kernel.h.
 */
#include "kernel.h"
