/*
 * report: placeholder; its interface arrives with issue #6.
 */
#ifndef LABRAT_REPORT_H
#define LABRAT_REPORT_H

#endif
