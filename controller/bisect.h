/*
 * bisect: placeholder; its interface arrives with issue #7.
 */
#ifndef LABRAT_BISECT_H
#define LABRAT_BISECT_H

#endif
