/* huffman_tables.h: the HPACK Huffman code (RFC 7541 Appendix B) and the lookup
 * tables the coders derive from it. Only the 257 codes are compiled in; the rest
 * is built once when the library loads (huffman_tables.c), so no large generated
 * table is committed. */
#ifndef HPACK_HUFFMAN_TABLES_H
#define HPACK_HUFFMAN_TABLES_H

#include <stdint.h>

#define HUFFMAN_EOS 256
#define HUFFMAN_SYMBOLS 257
#define HUFFMAN_SHORTEST 5 /* bits: so 16 bits hold at most 3 symbols */

struct huffman_code {
    uint32_t code; /* right-aligned */
    uint8_t len;   /* 5..30 bits */
};
extern const struct huffman_code huffman_codes[HUFFMAN_SYMBOLS];

/* ---- Code tree: the 256 internal nodes; node 0 is the root. ----------------
 * A child below HUFFMAN_LEAF is an internal node, else HUFFMAN_LEAF + symbol.
 * The internal nodes are also the states of the 4-bit state machine. */
#define HUFFMAN_NODES 256
#define HUFFMAN_LEAF 256
extern uint16_t huffman_tree[HUFFMAN_NODES][2];

/* ---- 4-bit state machine (Pajarola; nghttp2's layout) ----------------------
 * huffman_fsm[state][nibble] walks four bits from a tree node. No code is
 * shorter than 5 bits, so at most one symbol ends inside a nibble. */
enum {
    HUFFMAN_FSM_SYM = 1,    /* a symbol ends inside this nibble: `sym`, after `bits` of its bits */
    HUFFMAN_FSM_EOS = 2,    /* ...and that symbol is EOS, which must not appear in a string */
    HUFFMAN_FSM_ACCEPT = 4, /* `state` may end a string: its path is all ones and at most 7 deep */
};
struct huffman_fsm_entry {
    uint8_t state; /* the node reached after the four bits */
    uint8_t flags;
    uint8_t sym;
    uint8_t bits;  /* 1..4, with HUFFMAN_FSM_SYM */
};
extern struct huffman_fsm_entry huffman_fsm[HUFFMAN_NODES][16];

/* ---- Big decode table (LiteSpeed's layout, widened) ------------------------
 * Indexed by the next 16 input bits: the (up to 3) whole symbols they start
 * with, how many there are and the bits they take. Count and bits have a byte
 * each, so the decoder reads them with one load and no masking; the entry is
 * padded to 8 bytes so an index is one scaled address. The index ranges
 * 0xfffe-0xffff begin a code over 16 bits: no symbol and no bits there. */
struct huffman_decode_entry {
    uint8_t sym[3];
    uint8_t count;
    uint8_t bits;
} __attribute__((aligned(8)));
extern struct huffman_decode_entry huffman_decode_table[1 << 16];

/* ---- Pair encode table (LiteSpeed's) ----------------------------------------
 * Indexed by two input bytes as they lie in memory (a native-endian uint16_t
 * load): their two codes concatenated, right-aligned. Pairs longer than 32
 * bits have len HUFFMAN_PAIR_INVALID, which never fits the accumulator, so
 * one comparison covers "fits" and "valid". len is a full word so the encoder
 * can subtract it straight from memory. */
#define HUFFMAN_PAIR_INVALID 64
struct huffman_pair {
    uint32_t code;
    uint32_t len;
};
extern struct huffman_pair huffman_pairs[1 << 16];

#endif
