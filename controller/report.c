/*
 * report: placeholder; see report.h.
 */
#include "report.h"
