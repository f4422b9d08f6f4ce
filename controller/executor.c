/*
 * executor: placeholder; see executor.h.
 */
#include "executor.h"
