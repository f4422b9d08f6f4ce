/*
 * executor: placeholder; its interface arrives with issue #5.
 */
#ifndef LABRAT_EXECUTOR_H
#define LABRAT_EXECUTOR_H

#endif
