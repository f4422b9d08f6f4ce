/*
 * ssh: placeholder; its interface arrives with issue #5.
 */
#ifndef LABRAT_SSH_H
#define LABRAT_SSH_H

#endif
