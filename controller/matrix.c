/*
 * matrix: placeholder; see matrix.h.
 */
#include "matrix.h"
