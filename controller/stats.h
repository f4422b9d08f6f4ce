/*
 * stats: placeholder; its interface arrives with issue #6.
 */
#ifndef LABRAT_STATS_H
#define LABRAT_STATS_H

#endif
