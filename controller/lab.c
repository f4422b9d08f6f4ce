/*
 * lab: placeholder; see lab.h.
 */
#include "lab.h"
