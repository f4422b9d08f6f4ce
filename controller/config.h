/*
 * config: placeholder; its interface arrives with issue #2.
 */
#ifndef LABRAT_CONFIG_H
#define LABRAT_CONFIG_H

#endif
