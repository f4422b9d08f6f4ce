/*
 * kernel: placeholder; its interface arrives with issue #7.
 */
#ifndef LABRAT_KERNEL_H
#define LABRAT_KERNEL_H

#endif
