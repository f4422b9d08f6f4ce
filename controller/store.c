/*
 * store: placeholder; see store.h.
 */
#include "store.h"
