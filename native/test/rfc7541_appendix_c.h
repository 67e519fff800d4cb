/* RFC 7541 Appendix C for the C tests, generated from the fixture shared with
 * the JS tests and the fuzz seeds (test/fixtures/rfc7541-appendix-c.json).
 * Fields and tables are "name: value\n" text, tables newest first; sizes are
 * the dynamic table size after the block. */
#ifndef RFC7541_APPENDIX_C_H
#define RFC7541_APPENDIX_C_H

#include <stddef.h>
#include <stdint.h>
#include "hpack.h"

struct rfc_block {
    const char *wire; /* hex */
    const char *headers;
    const char *table;
    size_t size;
};

/* C.3 to C.6: blocks on one connection, encoder and decoder alike. */
struct rfc_example {
    const char *section;
    uint32_t table_size;
    unsigned huffman;
    const struct rfc_block *blocks;
    size_t count;
};

/* C.2: one field on a fresh encoder with this strategy and flag. */
struct rfc_representation {
    const char *section;
    const char *wire;
    const char *header;
    enum hpack_indexing indexing;
    unsigned never_indexed;
    size_t size;
};

/* The Huffman-coded strings of C.4 and C.6. */
struct rfc_huffman_string {
    const char *plain;
    const char *hex;
};

extern const struct rfc_example rfc7541_examples[];
extern const size_t rfc7541_example_count;
extern const struct rfc_representation rfc7541_representations[];
extern const size_t rfc7541_representation_count;
extern const struct rfc_huffman_string rfc7541_huffman_strings[];
extern const size_t rfc7541_huffman_string_count;

#endif
