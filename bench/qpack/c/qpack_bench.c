/* QPACK benchmark: the project's codec (native/include/qpack.h) against
 * nghttp3's, on the field sections of a QPACK Offline Interop Format text
 * file, one connection per round, every section acknowledged right after it
 * is encoded (qpack_encoder_assume_acknowledged, nghttp3_qpack_encoder_ack_everything).
 *
 *   qpack-bench FILE.qif TABLE_CAPACITY BLOCKED_STREAMS SECONDS [codec/op]
 *
 * Prints one JSON line per codec and operation: ns per header byte (names
 * and values), the best round of those run in SECONDS, and the bytes sent
 * (field sections + encoder stream). With a codec/op argument ("ours/encode")
 * it runs that job once between callgrind's collection toggles instead, for
 * instruction counts. Decoding is checked field by field against the input. */
#include <nghttp3/nghttp3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <valgrind/callgrind.h>

#include "qpack.h"

struct field { const uint8_t *name, *value; size_t name_len, value_len; };
struct section { struct field *fields; size_t n; };
struct corpus { struct section *sections; size_t n; size_t header_bytes; uint8_t *file; };
/* What one encoding pass sent: per section its encoder-stream bytes then its field section. */
struct wire { uint8_t *enc, *sec; size_t *enc_len, *sec_len; };

static void fail(const char *what) { fprintf(stderr, "qpack-bench: %s\n", what); exit(1); }

static void *xmalloc(size_t n) { void *p = malloc(n ? n : 1); if (!p) fail("out of memory"); return p; }

static struct corpus load(const char *path)
{
    struct corpus c = { 0 };
    FILE *f = fopen(path, "rb");
    long size;
    size_t cap = 0, fcap = 0;
    if (!f || fseek(f, 0, SEEK_END) || (size = ftell(f)) < 0 || fseek(f, 0, SEEK_SET)) fail("cannot read the input");
    c.file = xmalloc((size_t)size + 1);
    if (fread(c.file, 1, (size_t)size, f) != (size_t)size) fail("cannot read the input");
    fclose(f);
    c.file[size] = '\n';
    struct section cur = { 0 };
    for (uint8_t *p = c.file, *end = c.file + size; p < end;) {
        uint8_t *nl = memchr(p, '\n', (size_t)(end - p) + 1), *tab;
        if (nl == p) {
            if (cur.n) {
                if (c.n == cap) c.sections = realloc(c.sections, (cap = cap ? 2 * cap : 256) * sizeof *c.sections);
                c.sections[c.n++] = cur;
                cur = (struct section){ 0 };
                fcap = 0;
            }
        } else if (*p != '#') {
            if (!(tab = memchr(p, '\t', (size_t)(nl - p)))) fail("a line without a tab");
            if (cur.n == fcap) cur.fields = realloc(cur.fields, (fcap = fcap ? 2 * fcap : 16) * sizeof *cur.fields);
            cur.fields[cur.n++] = (struct field){ p, tab + 1, (size_t)(tab - p), (size_t)(nl - tab - 1) };
            c.header_bytes += (size_t)(nl - p) - 1;
        }
        p = nl + 1;
    }
    if (cur.n) fail("the input must end with a blank line");
    return c;
}

static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec / 1e9; }

static struct wire wire_new(const struct corpus *c)
{
    struct wire w = { xmalloc(8 * c->header_bytes + 64 * c->n), xmalloc(8 * c->header_bytes + 64 * c->n),
                      xmalloc(c->n * sizeof(size_t)), xmalloc(c->n * sizeof(size_t)) };
    return w;
}

/* ---- ours ---- */

static size_t ours_encode(const struct corpus *c, uint32_t cap, uint32_t blocked, struct wire *w)
{
    struct qpack_encoder_settings s = { cap, cap, blocked, HPACK_ENCODER_HUFFMAN };
    struct qpack_encoder *enc = qpack_encoder_new(&s);
    struct hpack_header hs[512];
    uint8_t *ep = w->enc, *sp = w->sec;
    for (size_t i = 0; i < c->n; i++) {
        const struct section *sec = &c->sections[i];
        if (sec->n > 512) fail("a section of more than 512 fields");
        for (size_t j = 0; j < sec->n; j++)
            hs[j] = (struct hpack_header){ sec->fields[j].name, sec->fields[j].name_len, sec->fields[j].value, sec->fields[j].value_len, 0 };
        ssize_t n = qpack_encoder_encode(enc, 4 * i, hs, sec->n, sp, qpack_encoder_bound(enc, hs, sec->n));
        if (n < 0) fail(qpack_strerror((int)n));
        w->sec_len[i] = (size_t)n;
        sp += n;
        w->enc_len[i] = qpack_encoder_read_stream(enc, ep, SIZE_MAX);
        ep += w->enc_len[i];
        qpack_encoder_assume_acknowledged(enc);
    }
    qpack_encoder_free(enc);
    return (size_t)(ep - w->enc) + (size_t)(sp - w->sec);
}

struct check { const struct section *want; size_t next; int bad; };

static int check_field(void *ctx, uint64_t stream, const struct hpack_header *h)
{
    struct check *k = ctx;
    (void)stream;
    if (!h) return k->bad |= k->next != k->want->n, 0;
    const struct field *f = k->next < k->want->n ? &k->want->fields[k->next] : NULL;
    k->next++;
    k->bad |= !f || f->name_len != h->name_len || f->value_len != h->value_len ||
              memcmp(f->name, h->name, h->name_len) || memcmp(f->value, h->value, h->value_len);
    return 0;
}

static void ours_decode(const struct corpus *c, uint32_t cap, uint32_t blocked, const struct wire *w)
{
    struct qpack_decoder_settings s = { cap, blocked, 1u << 24, 1u << 24, 1u << 24 };
    struct qpack_decoder *dec = qpack_decoder_new(&s);
    const uint8_t *ep = w->enc, *sp = w->sec;
    uint8_t out[256];
    for (size_t i = 0; i < c->n; i++) {
        struct check k = { &c->sections[i], 0, 0 };
        if (qpack_decoder_feed_encoder(dec, ep, w->enc_len[i], check_field, &k) != QPACK_OK) fail("ours: encoder stream");
        if (qpack_decoder_decode(dec, 4 * i, sp, w->sec_len[i], check_field, &k) != QPACK_OK || k.bad) fail("ours: section");
        ep += w->enc_len[i];
        sp += w->sec_len[i];
        while (qpack_decoder_read_stream(dec, out, sizeof out)) ;
    }
    qpack_decoder_free(dec);
}

/* ---- nghttp3 ---- */

static size_t nghttp3_encode(const struct corpus *c, uint32_t cap, uint32_t blocked, struct wire *w)
{
    const nghttp3_mem *mem = nghttp3_mem_default();
    nghttp3_qpack_encoder *enc;
    nghttp3_buf pbuf, rbuf, ebuf;
    nghttp3_nv nva[512];
    uint8_t *ep = w->enc, *sp = w->sec;
    if (nghttp3_qpack_encoder_new(&enc, cap, mem)) fail("nghttp3_qpack_encoder_new");
    nghttp3_qpack_encoder_set_max_dtable_capacity(enc, cap);
    nghttp3_qpack_encoder_set_max_blocked_streams(enc, blocked);
    nghttp3_buf_init(&pbuf);
    nghttp3_buf_init(&rbuf);
    nghttp3_buf_init(&ebuf);
    for (size_t i = 0; i < c->n; i++) {
        const struct section *sec = &c->sections[i];
        for (size_t j = 0; j < sec->n; j++)
            nva[j] = (nghttp3_nv){ (uint8_t *)sec->fields[j].name, (uint8_t *)sec->fields[j].value,
                                   sec->fields[j].name_len, sec->fields[j].value_len, NGHTTP3_NV_FLAG_NONE };
        if (nghttp3_qpack_encoder_encode(enc, &pbuf, &rbuf, &ebuf, (int64_t)(4 * i), nva, sec->n)) fail("nghttp3 encode");
        w->enc_len[i] = (size_t)(ebuf.last - ebuf.pos);
        memcpy(ep, ebuf.pos, w->enc_len[i]);
        ep += w->enc_len[i];
        w->sec_len[i] = (size_t)(pbuf.last - pbuf.pos) + (size_t)(rbuf.last - rbuf.pos);
        memcpy(sp, pbuf.pos, (size_t)(pbuf.last - pbuf.pos));
        memcpy(sp + (pbuf.last - pbuf.pos), rbuf.pos, (size_t)(rbuf.last - rbuf.pos));
        sp += w->sec_len[i];
        nghttp3_buf_reset(&pbuf);
        nghttp3_buf_reset(&rbuf);
        nghttp3_buf_reset(&ebuf);
        nghttp3_qpack_encoder_ack_everything(enc);
    }
    nghttp3_buf_free(&pbuf, mem);
    nghttp3_buf_free(&rbuf, mem);
    nghttp3_buf_free(&ebuf, mem);
    nghttp3_qpack_encoder_del(enc);
    return (size_t)(ep - w->enc) + (size_t)(sp - w->sec);
}

static void nghttp3_decode(const struct corpus *c, uint32_t cap, uint32_t blocked, const struct wire *w)
{
    const nghttp3_mem *mem = nghttp3_mem_default();
    nghttp3_qpack_decoder *dec;
    const uint8_t *ep = w->enc, *sp = w->sec;
    uint8_t out[256];
    if (nghttp3_qpack_decoder_new(&dec, cap, blocked, mem)) fail("nghttp3_qpack_decoder_new");
    for (size_t i = 0; i < c->n; i++) {
        nghttp3_qpack_stream_context *sctx;
        struct check k = { &c->sections[i], 0, 0 };
        const uint8_t *p = sp, *end = sp + w->sec_len[i];
        if (nghttp3_qpack_decoder_read_encoder(dec, ep, w->enc_len[i]) != (nghttp3_ssize)w->enc_len[i]) fail("nghttp3: encoder stream");
        if (nghttp3_qpack_stream_context_new(&sctx, (int64_t)(4 * i), mem)) fail("nghttp3_qpack_stream_context_new");
        for (;;) {
            nghttp3_qpack_nv nv;
            uint8_t flags = 0;
            nghttp3_ssize n = nghttp3_qpack_decoder_read_request(dec, sctx, &nv, &flags, p, (size_t)(end - p), 1);
            if (n < 0 || (flags & NGHTTP3_QPACK_DECODE_FLAG_BLOCKED)) fail("nghttp3: section");
            p += n;
            if (flags & NGHTTP3_QPACK_DECODE_FLAG_EMIT) {
                nghttp3_vec name = nghttp3_rcbuf_get_buf(nv.name), value = nghttp3_rcbuf_get_buf(nv.value);
                struct hpack_header h = { name.base, name.len, value.base, value.len, 0 };
                check_field(&k, 0, &h);
                nghttp3_rcbuf_decref(nv.name);
                nghttp3_rcbuf_decref(nv.value);
            }
            if (flags & NGHTTP3_QPACK_DECODE_FLAG_FINAL) break;
        }
        check_field(&k, 0, NULL);
        if (k.bad) fail("nghttp3: wrong fields");
        nghttp3_qpack_stream_context_del(sctx);
        ep += w->enc_len[i];
        sp += w->sec_len[i];
        size_t dlen = nghttp3_qpack_decoder_get_decoder_streamlen(dec);
        if (dlen > sizeof out) fail("nghttp3: decoder stream");
        nghttp3_buf dbuf = { out, out + sizeof out, out, out };
        nghttp3_qpack_decoder_write_decoder(dec, &dbuf);
    }
    nghttp3_qpack_decoder_del(dec);
}

/* ---- driver ---- */

struct codec {
    const char *name;
    size_t (*encode)(const struct corpus *, uint32_t, uint32_t, struct wire *);
    void (*decode)(const struct corpus *, uint32_t, uint32_t, const struct wire *);
};

static const struct codec codecs[] = { { "ours", ours_encode, ours_decode }, { "nghttp3", nghttp3_encode, nghttp3_decode } };

int main(int argc, char **argv)
{
    if (argc < 5) fail("usage: qpack-bench FILE.qif TABLE_CAPACITY BLOCKED_STREAMS SECONDS [codec/op]");
    struct corpus c = load(argv[1]);
    uint32_t cap = (uint32_t)atol(argv[2]), blocked = (uint32_t)atol(argv[3]);
    double seconds = atof(argv[4]);
    for (size_t k = 0; k < sizeof codecs / sizeof codecs[0]; k++) {
        const struct codec *co = &codecs[k];
        struct wire w = wire_new(&c);
        size_t sent = co->encode(&c, cap, blocked, &w);
        co->decode(&c, cap, blocked, &w); /* checks, and warms up */
        for (int op = 0; op < 2; op++) {
            char job[64];
            snprintf(job, sizeof job, "%s/%s", co->name, op ? "decode" : "encode");
            if (argc > 5) {
                if (strcmp(argv[5], job)) continue;
                CALLGRIND_TOGGLE_COLLECT;
                op ? co->decode(&c, cap, blocked, &w) : (void)co->encode(&c, cap, blocked, &w);
                CALLGRIND_TOGGLE_COLLECT;
                printf("{\"job\":\"%s\",\"header_bytes\":%zu}\n", job, c.header_bytes);
                continue;
            }
            double best = 1e30, start = now();
            int rounds = 0;
            do {
                double t0 = now();
                op ? co->decode(&c, cap, blocked, &w) : (void)co->encode(&c, cap, blocked, &w);
                double t = now() - t0;
                if (t < best) best = t;
                rounds++;
            } while (now() - start < seconds);
            printf("{\"job\":\"%s\",\"table\":%u,\"blocked\":%u,\"sections\":%zu,\"header_bytes\":%zu,\"sent_bytes\":%zu,"
                   "\"ratio\":%.4f,\"rounds\":%d,\"ns_per_header_byte\":%.3f}\n",
                   job, cap, blocked, c.n, c.header_bytes, sent, (double)sent / c.header_bytes, rounds,
                   best * 1e9 / c.header_bytes);
        }
    }
    return 0;
}
