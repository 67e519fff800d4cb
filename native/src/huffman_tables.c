/* Builds the Huffman lookup tables from the 257 RFC codes when the library is
 * loaded. They are pure functions of huffman_codes, so building them twice
 * writes the same bytes. */
#include <string.h>
#include "huffman_tables.h"
#include "generated/huffman_codes.h"

uint16_t huffman_tree[HUFFMAN_NODES][2];
struct huffman_fsm_entry huffman_fsm[HUFFMAN_NODES][16];
struct huffman_decode_entry huffman_decode_table[1 << 16];
struct huffman_pair huffman_pairs[1 << 16];

static void build_tree(void)
{
    unsigned next = 1;
    memset(huffman_tree, 0, sizeof huffman_tree);
    for (unsigned sym = 0; sym < HUFFMAN_SYMBOLS; sym++) {
        unsigned node = 0;
        for (int i = huffman_codes[sym].len - 1; i > 0; i--) {
            unsigned bit = (huffman_codes[sym].code >> i) & 1;
            /* 0 never names a child (the root is nobody's child), so it marks "not yet made". */
            if (huffman_tree[node][bit] == 0)
                huffman_tree[node][bit] = (uint16_t)next++;
            node = huffman_tree[node][bit];
        }
        huffman_tree[node][huffman_codes[sym].code & 1] = (uint16_t)(HUFFMAN_LEAF + sym);
    }
}

/* A string may end in a node reached from the root by at most 7 one bits:
 * valid padding is a prefix of EOS shorter than a byte. */
static void accepting_nodes(uint8_t accept[HUFFMAN_NODES])
{
    unsigned node = 0;
    memset(accept, 0, HUFFMAN_NODES);
    for (int depth = 0; depth <= 7; depth++) {
        accept[node] = 1;
        node = huffman_tree[node][1];
    }
}

static void build_fsm(void)
{
    uint8_t accept[HUFFMAN_NODES];
    accepting_nodes(accept);
    for (unsigned state = 0; state < HUFFMAN_NODES; state++) {
        for (unsigned nibble = 0; nibble < 16; nibble++) {
            struct huffman_fsm_entry e = { 0, 0, 0, 0 };
            unsigned node = state;
            for (unsigned i = 0; i < 4; i++) {
                unsigned child = huffman_tree[node][(nibble >> (3 - i)) & 1];
                if (child < HUFFMAN_LEAF) {
                    node = child;
                    continue;
                }
                e.flags = HUFFMAN_FSM_SYM;
                e.bits = (uint8_t)(i + 1);
                if (child - HUFFMAN_LEAF == HUFFMAN_EOS) {
                    e.flags |= HUFFMAN_FSM_EOS;
                    break;
                }
                e.sym = (uint8_t)(child - HUFFMAN_LEAF);
                node = 0;
            }
            e.state = (uint8_t)node;
            if (!(e.flags & HUFFMAN_FSM_EOS) && accept[node])
                e.flags |= HUFFMAN_FSM_ACCEPT;
            huffman_fsm[state][nibble] = e;
        }
    }
}

/* Byte symbols, shortest code first: the RFC code is canonical, so shorter
 * codes are exactly the smaller left-aligned values. */
static uint8_t by_length[256];

static void sort_by_length(void)
{
    unsigned n = 0;
    for (unsigned len = HUFFMAN_SHORTEST; len <= 30; len++)
        for (unsigned sym = 0; sym < 256; sym++)
            if (huffman_codes[sym].len == len)
                by_length[n++] = (uint8_t)sym;
}

/* Fills the indices whose high `used` bits are `prefix`: first all of them
 * with the symbols decoded so far, then each symbol that still fits refills
 * its own share. Each index is written at most four times. */
static void fill_decode(unsigned prefix, unsigned used, struct huffman_decode_entry e)
{
    unsigned count = e.count;
    unsigned first = prefix << (16 - used), n = 1u << (16 - used);
    for (unsigned i = 0; i < n; i++)
        huffman_decode_table[first + i] = e;
    if (count == 3)
        return;
    for (unsigned k = 0; k < 256 && huffman_codes[by_length[k]].len <= 16 - used; k++) {
        const struct huffman_code *c = &huffman_codes[by_length[k]];
        struct huffman_decode_entry next = e;
        next.sym[count] = by_length[k];
        next.count = (uint8_t)(count + 1);
        next.bits = (uint8_t)(used + c->len);
        fill_decode(prefix << c->len | c->code, used + c->len, next);
    }
}

/* Indices no symbol starts are those beginning 0xfffe or 0xffff, a code over
 * 16 bits: the initial fill leaves them empty. */
static void build_decode_table(void)
{
    sort_by_length();
    fill_decode(0, 0, (struct huffman_decode_entry){ { 0, 0, 0 }, 0, 0 });
}

static void build_pairs(void)
{
    for (unsigned a = 0; a < 256; a++) {
        for (unsigned b = 0; b < 256; b++) {
            const uint8_t bytes[2] = { (uint8_t)a, (uint8_t)b };
            unsigned bits = huffman_codes[a].len + huffman_codes[b].len;
            struct huffman_pair pair = { 0, HUFFMAN_PAIR_INVALID };
            uint16_t index;
            if (bits <= 32) {
                pair.code = (uint32_t)((uint64_t)huffman_codes[a].code << huffman_codes[b].len | huffman_codes[b].code);
                pair.len = bits;
            }
            memcpy(&index, bytes, sizeof index);
            huffman_pairs[index] = pair;
        }
    }
}

__attribute__((constructor)) static void huffman_tables_build(void)
{
    build_tree();
    build_fsm();
    build_decode_table();
    build_pairs();
}
