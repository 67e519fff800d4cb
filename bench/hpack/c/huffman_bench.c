#include "huffman_bench.h"

#include <stdlib.h>
#include <string.h>

#include "fail.h"
#include "hpack.h"
#include "workload.h"
#include "hpack_internal.h"

typedef ssize_t (*coder_fn)(const uint8_t *src, size_t len, uint8_t *dst, size_t cap);

struct coder {
    const char *name;
    coder_fn fn;
};

static const struct coder decoders[] = {
    { "big-table", hpack_huffman_decode },
    { "4bit", hpack_huffman_decode_4bit },
    { "bitwise", hpack_huffman_decode_bitwise },
};

static const struct coder encoders[] = {
    { "big-table", hpack_huffman_encode },
    { "bytewise", hpack_huffman_encode_bytewise },
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

struct run_ctx {
    const struct bytes *inputs;
    size_t n;
    coder_fn fn;
    uint8_t *out;
    size_t cap;
};

static void run_coder(void *arg) {
    const struct run_ctx *c = arg;
    uint64_t sum = 0;
    for (size_t i = 0; i < c->n; i++) {
        ssize_t r = c->fn(c->inputs[i].p, c->inputs[i].len, c->out, c->cap);
        if (r < 0) fail("coder failed inside a timed loop (%zd)", r);
        sum += (uint64_t)r;
    }
    bench_sink += sum;
}

static void expect_same(const char *what, const char *coder, size_t i, ssize_t r,
                        const uint8_t *got, const struct bytes *want) {
    if (r < 0 || (size_t)r != want->len || memcmp(got, want->p, want->len) != 0)
        fail("%s: %s differs from the expected bytes on string %zu (returned %zd)", what, coder, i, r);
}

/* Huffman-codes every string with the big-table encoder and checks that the
 * byte-wise encoder and encoded_length agree and every decoder gives the
 * string back, so no timed call is on a wrong path. */
static struct bytes *encode_and_verify(const struct string_list *plain, uint8_t **storage,
                                       size_t *coded_total, uint8_t *scratch, size_t cap) {
    size_t bound = 0;
    for (size_t i = 0; i < plain->n; i++) bound += hpack_huffman_encoded_length(plain->items[i].p, plain->items[i].len);
    uint8_t *buf = xmalloc(bound);
    struct bytes *coded = xcalloc(plain->n, sizeof *coded);
    size_t at = 0;
    for (size_t i = 0; i < plain->n; i++) {
        const struct bytes *s = &plain->items[i];
        size_t want = hpack_huffman_encoded_length(s->p, s->len);
        ssize_t r = hpack_huffman_encode(s->p, s->len, buf + at, want);
        if (r < 0 || (size_t)r != want) fail("hpack_huffman_encode gave %zd bytes, encoded_length %zu (string %zu)", r, want, i);
        coded[i] = (struct bytes){ buf + at, want };
        at += want;
        for (size_t e = 1; e < COUNT(encoders); e++)
            expect_same("encode", encoders[e].name, i, encoders[e].fn(s->p, s->len, scratch, cap), scratch, &coded[i]);
        for (size_t d = 0; d < COUNT(decoders); d++)
            expect_same("decode", decoders[d].name, i, decoders[d].fn(coded[i].p, coded[i].len, scratch, cap), scratch, s);
    }
    *storage = buf;
    *coded_total = at;
    return coded;
}

void huffman_bench(const char *workload, const char *path, const struct measure_opts *opts) {
    struct string_list plain;
    string_list_load(&plain, path);
    size_t longest = 1;
    for (size_t i = 0; i < plain.n; i++)
        if (plain.items[i].len > longest) longest = plain.items[i].len;
    /* Codes are at most 30 bits a byte and a decoder may ask for len * 8 / 5
     * bytes of room up front, so this fits every call either way. */
    size_t cap = longest * 6 + 16;
    uint8_t *out = xmalloc(cap);
    uint8_t *storage;
    size_t coded_total;
    struct bytes *coded = encode_and_verify(&plain, &storage, &coded_total, out, cap);

    for (size_t d = 0; d < COUNT(decoders); d++) {
        struct run_ctx ctx = { coded, plain.n, decoders[d].fn, out, cap };
        struct job job = { "huffman-decode", workload, decoders[d].name, run_coder, &ctx, plain.n, coded_total };
        measure(&job, opts);
    }
    for (size_t e = 0; e < COUNT(encoders); e++) {
        struct run_ctx ctx = { plain.items, plain.n, encoders[e].fn, out, cap };
        struct job job = { "huffman-encode", workload, encoders[e].name, run_coder, &ctx, plain.n, plain.total_bytes };
        measure(&job, opts);
    }
    free(coded);
    free(storage);
    free(out);
    string_list_free(&plain);
}
