/* bytesval.h - Python's bytes on the host: an immutable sequence of
 * byte values 0..255 (literals b'...', bytes(...), str.encode, binary
 * files).  A bytes is a VAL_OBJECT of type bytesval_type holding its
 * length and data; it indexes to ints, slices to bytes, iterates over
 * ints, compares and hashes by content, concatenates with + and repeats
 * with *, and prints as CPython's repr (b'a\x00"'). */
#ifndef TRITSIM_BYTESVAL_H
#define TRITSIM_BYTESVAL_H

#include <stdbool.h>
#include <stddef.h>

#include "val.h"

extern const val_type bytesval_type;

/* A new bytes holding a copy of the len bytes at data. */
val bytesval_new(const void *data, size_t len);
bool bytesval_is(val v);
/* The data and length of bytes v (borrowed). */
const unsigned char *bytesval_data(val v, size_t *len);

#endif
