/*
 * detect: placeholder; its interface arrives with issue #6.
 */
#ifndef LABRAT_DETECT_H
#define LABRAT_DETECT_H

#endif
