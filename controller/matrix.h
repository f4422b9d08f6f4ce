/*
 * matrix: placeholder; its interface arrives with issue #5.
 */
#ifndef LABRAT_MATRIX_H
#define LABRAT_MATRIX_H

#endif
