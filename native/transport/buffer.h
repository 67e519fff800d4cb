// The growth of a connection's output buffer (conn.c, floor.c): doubling
// from 4 KiB, so that a stream of appends costs few reallocations.
#ifndef TRANSPORT_BUFFER_H
#define TRANSPORT_BUFFER_H

#include <stddef.h>

// Makes *buf (of *cap bytes) hold at least need bytes. Returns 0 when out of
// memory, with *buf and *cap as they were.
int buffer_reserve(unsigned char **buf, size_t *cap, size_t need);

#endif
