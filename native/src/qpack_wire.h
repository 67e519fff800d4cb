/* QPACK representation bits and prefix sizes (RFC 9204 4.3-4.5), and the
 * Required Insert Count arithmetic both ends share. */
#ifndef QPACK_WIRE_H
#define QPACK_WIRE_H

#include <stdint.h>
#include "dynamic_table.h"

/* Encoder instructions (4.3). */
#define QPACK_SET_CAPACITY 0x20u        /* 001, 5-bit capacity */
#define QPACK_INSERT_NAME_REF 0x80u     /* 1T, 6-bit index */
#define QPACK_INSERT_STATIC 0x40u       /* T */
#define QPACK_INSERT_LITERAL_NAME 0x40u /* 01H, 5-bit name length */
#define QPACK_DUPLICATE 0x00u           /* 000, 5-bit relative index */

/* Decoder instructions (4.4). */
#define QPACK_SECTION_ACK 0x80u         /* 1, 7-bit stream id */
#define QPACK_STREAM_CANCEL 0x40u       /* 01, 6-bit stream id */
#define QPACK_INSERT_COUNT_INC 0x00u    /* 00, 6-bit increment */

/* Field line representations (4.5). */
#define QPACK_FL_INDEXED 0x80u          /* 1T, 6-bit index */
#define QPACK_FL_STATIC 0x40u           /* T of indexed lines */
#define QPACK_FL_POST_BASE 0x10u        /* 0001, 4-bit post-base index */
#define QPACK_FL_NAME_REF 0x40u         /* 01NT, 4-bit index */
#define QPACK_FL_NAME_REF_N 0x20u
#define QPACK_FL_NAME_REF_STATIC 0x10u
#define QPACK_FL_POST_BASE_NAME 0x00u   /* 0000N, 3-bit post-base index */
#define QPACK_FL_POST_BASE_NAME_N 0x08u
#define QPACK_FL_LITERAL_NAME 0x20u     /* 001NH, 3-bit name length */
#define QPACK_FL_LITERAL_NAME_N 0x10u

/* Largest stream id the 32-bit integer coder carries. */
#define QPACK_MAX_STREAM_ID UINT32_MAX

/* MaxEntries (4.5.1.1): how many entries a table of the maximum capacity can hold. */
static inline uint64_t qpack_max_entries(uint32_t max_table_capacity)
{
    return max_table_capacity / HPACK_ENTRY_OVERHEAD;
}

/* The Required Insert Count as sent: 0, or ric mod 2 * MaxEntries, plus one. */
static inline uint32_t qpack_encode_ric(uint64_t ric, uint64_t max_entries)
{
    return ric ? (uint32_t)(ric % (2 * max_entries) + 1) : 0;
}

#endif
