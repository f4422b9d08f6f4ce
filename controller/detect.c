/*
 * detect: placeholder; see detect.h.
 */
#include "detect.h"
