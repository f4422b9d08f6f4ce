/*
 * agentctl: placeholder; its interface arrives with issue #5.
 */
#ifndef LABRAT_AGENTCTL_H
#define LABRAT_AGENTCTL_H

#endif
