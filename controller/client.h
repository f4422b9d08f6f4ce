/*
 * client: placeholder; its interface arrives with issue #7.
 */
#ifndef LABRAT_CLIENT_H
#define LABRAT_CLIENT_H

#endif
