/*
 * lab: placeholder; its interface arrives with issue #4.
 */
#ifndef LABRAT_LAB_H
#define LABRAT_LAB_H

#endif
