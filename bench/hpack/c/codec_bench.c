#include "codec_bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codec.h"
#include "fail.h"

/* ---- checking decoded headers against the expected list ---- */

struct expect {
    const struct header_block *block;
    size_t next;
    int mismatch;
};

static int expect_header(void *arg, const struct hpack_header *got) {
    struct expect *e = arg;
    const struct header *h = e->next < e->block->n_headers ? &e->block->headers[e->next] : NULL;
    e->next++;
    if (!h || h->name.len != got->name_len || h->value.len != got->value_len ||
        memcmp(h->name.p, got->name, got->name_len) != 0 || memcmp(h->value.p, got->value, got->value_len) != 0) {
        e->mismatch = 1;
        return 1;
    }
    return 0;
}

static void decode_checked(const struct codec *codec, void *dec, const struct bytes *wire,
                           const struct header_block *want, const char *what, size_t story, size_t block) {
    struct expect e = { want, 0, 0 };
    int rv = codec->decode(dec, wire, expect_header, &e);
    if (e.mismatch || rv != 0 || e.next != want->n_headers)
        fail("%s: %s decoder %s story %zu block %zu (header %zu, rv %d)", what, codec->name,
             e.mismatch ? "gave a wrong header in" : "failed on", story, block, e.next, rv);
}

/* ---- decode ---- */

/* Touches the first byte of each string, as any consumer would, so a codec
 * cannot win by handing out views it never had to fill. */
static int count_header(void *arg, const struct hpack_header *h) {
    uint64_t *sum = arg;
    *sum += h->name_len + h->value_len;
    if (h->name_len) *sum += h->name[0];
    if (h->value_len) *sum += h->value[0];
    return 0;
}

struct decode_ctx {
    const struct codec *codec;
    const struct story_set *set;
};

static void decode_all(void *arg) {
    const struct decode_ctx *c = arg;
    uint64_t sum = 0;
    for (size_t s = 0; s < c->set->n_stories; s++) {
        const struct story *st = &c->set->stories[s];
        void *dec = c->codec->decoder_new();
        for (size_t b = 0; b < st->n_cases; b++)
            if (c->codec->decode(dec, &st->cases[b].wire, count_header, &sum) != 0)
                fail("%s decoder failed inside a timed loop", c->codec->name);
        c->codec->decoder_free(dec);
    }
    bench_sink += sum;
}

static void decode_one(const struct codec *codec, const struct story_set *set, const char *workload,
                       const struct measure_opts *opts) {
    struct job job = { "decode", workload, codec->name, decode_all, NULL, set->n_cases, set->plain_bytes };
    if (!measure_selects(&job, opts)) return;
    for (size_t s = 0; s < set->n_stories; s++) {
        void *dec = codec->decoder_new();
        for (size_t b = 0; b < set->stories[s].n_cases; b++)
            decode_checked(codec, dec, &set->stories[s].cases[b].wire, &set->stories[s].cases[b], workload, s, b);
        codec->decoder_free(dec);
    }
    struct decode_ctx ctx = { codec, set };
    job.ctx = &ctx;
    measure(&job, opts);
}

void codec_decode_bench(const char *workload, const char *path, const struct measure_opts *opts) {
    struct story_set set;
    story_set_load(&set, path);
    /* MB/s counts name+value bytes, the same for every decoder. */
    decode_one(&codec_ours[0], &set, workload, opts);
    decode_one(&codec_nghttp2, &set, workload, opts);
    story_set_free(&set);
}

/* ---- encode ---- */

struct encode_ctx {
    const struct codec *codec;
    const struct story_set *set;
    const void *prepared;
    uint8_t *out;
    size_t cap;
};

static void encode_all(void *arg) {
    const struct encode_ctx *c = arg;
    uint64_t sum = 0;
    for (size_t s = 0; s < c->set->n_stories; s++) {
        const struct story *st = &c->set->stories[s];
        void *enc = c->codec->encoder_new();
        for (size_t b = 0; b < st->n_cases; b++) {
            ssize_t n = c->codec->encode(enc, c->prepared, s, b, c->out, c->cap);
            if (n < 0) fail("%s encoder failed inside a timed loop (%zd)", c->codec->name, n);
            sum += (uint64_t)n;
        }
        c->codec->encoder_free(enc);
    }
    bench_sink += sum;
}

/* One output buffer for every block, sized by each library's own bound. */
static size_t largest_bound(const struct codec *codec, const void *prepared, const struct story_set *set) {
    size_t cap = 0;
    for (size_t s = 0; s < set->n_stories; s++) {
        void *enc = codec->encoder_new();
        for (size_t b = 0; b < set->stories[s].n_cases; b++) {
            size_t bound = codec->encode_bound(enc, prepared, s, b);
            if (bound > cap) cap = bound;
        }
        codec->encoder_free(enc);
    }
    return cap;
}

/* Encodes everything once, decodes each block with both codecs (the encoder's
 * own and the other library's) and returns the total wire bytes. */
static size_t encode_checked(const struct encode_ctx *c, const char *workload) {
    const struct codec *checkers[] = { &codec_ours[0], &codec_nghttp2 };
    size_t wire_total = 0;
    for (size_t s = 0; s < c->set->n_stories; s++) {
        const struct story *st = &c->set->stories[s];
        void *enc = c->codec->encoder_new();
        void *dec[2];
        for (size_t k = 0; k < 2; k++) dec[k] = checkers[k]->decoder_new();
        for (size_t b = 0; b < st->n_cases; b++) {
            ssize_t n = c->codec->encode(enc, c->prepared, s, b, c->out, c->cap);
            if (n < 0) fail("%s: %s encoder failed on story %zu block %zu (%zd)", workload, c->codec->name, s, b, n);
            struct bytes wire = { c->out, (size_t)n };
            char what[160];
            snprintf(what, sizeof what, "%s (output of the %s encoder)", workload, c->codec->name);
            for (size_t k = 0; k < 2; k++) decode_checked(checkers[k], dec[k], &wire, &st->cases[b], what, s, b);
            wire_total += (size_t)n;
        }
        for (size_t k = 0; k < 2; k++) checkers[k]->decoder_free(dec[k]);
        c->codec->encoder_free(enc);
    }
    return wire_total;
}

static void encode_one(const struct codec *codec, const struct story_set *set, const char *workload,
                       const struct measure_opts *opts) {
    char impl[64];
    snprintf(impl, sizeof impl, "%s%s%s", codec->name, codec->strategy ? "-" : "", codec->strategy ? codec->strategy : "");
    struct job job = { "encode", workload, impl, encode_all, NULL, set->n_cases, set->plain_bytes };
    if (!measure_selects(&job, opts)) return;
    void *prepared = codec->prepare(set);
    size_t cap = largest_bound(codec, prepared, set);
    struct encode_ctx ctx = { codec, set, prepared, xmalloc(cap), cap };
    size_t wire = encode_checked(&ctx, workload);
    printf("{\"ratio\":{\"workload\":\"%s\",\"impl\":\"%s\",\"blocks\":%zu,\"wire\":%zu,\"plain\":%zu}}\n",
           workload, impl, set->n_cases, wire, set->plain_bytes);
    job.ctx = &ctx;
    measure(&job, opts);
    free(ctx.out);
    codec->release(prepared);
}

void codec_encode_bench(const char *workload, const char *path, const struct measure_opts *opts) {
    struct story_set set;
    story_set_load(&set, path);
    for (const struct codec *c = codec_ours; c->name; c++) encode_one(c, &set, workload, opts);
    encode_one(&codec_nghttp2, &set, workload, opts);
    story_set_free(&set);
}
