/*
 * bisect: placeholder; see bisect.h.
 */
#include "bisect.h"
