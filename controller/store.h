/*
 * store: placeholder; its interface arrives with issue #2.
 */
#ifndef LABRAT_STORE_H
#define LABRAT_STORE_H

#endif
