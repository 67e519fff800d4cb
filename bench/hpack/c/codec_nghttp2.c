/* libnghttp2's public HPACK API (Debian's -O2 build) behind struct codec. */
#include <nghttp2/nghttp2.h>

#include "codec.h"
#include "converted.h"
#include "fail.h"

static void to_nv(const struct header *in, void *out) {
    /* nghttp2_nv is not const-correct; the deflater only reads these bytes. */
    *(nghttp2_nv *)out = (nghttp2_nv){ (uint8_t *)in->name.p, (uint8_t *)in->value.p, in->name.len, in->value.len,
                                       NGHTTP2_NV_FLAG_NONE };
}

static void *prepare(const struct story_set *set) {
    return converted_new(set, sizeof(nghttp2_nv), to_nv);
}

static void release(void *prepared) {
    converted_free(prepared);
}

static void *deflater_new(void) {
    nghttp2_hd_deflater *d;
    if (nghttp2_hd_deflate_new(&d, HPACK_DEFAULT_TABLE_SIZE) != 0) fail("nghttp2_hd_deflate_new failed");
    return d;
}

static void deflater_free(void *d) {
    nghttp2_hd_deflate_del(d);
}

static size_t encode_bound(void *enc, const void *prepared, size_t story, size_t block) {
    size_t n;
    const nghttp2_nv *nva = converted_block(prepared, story, block, &n);
    return nghttp2_hd_deflate_bound(enc, nva, n);
}

static ssize_t encode(void *enc, const void *prepared, size_t story, size_t block, uint8_t *out, size_t cap) {
    size_t n;
    const nghttp2_nv *nva = converted_block(prepared, story, block, &n);
    return nghttp2_hd_deflate_hd(enc, out, cap, nva, n);
}

static void *inflater_new(void) {
    nghttp2_hd_inflater *inf;
    if (nghttp2_hd_inflate_new(&inf) != 0) fail("nghttp2_hd_inflate_new failed");
    return inf;
}

static void inflater_free(void *inf) {
    nghttp2_hd_inflate_del(inf);
}

/* The loop nghttp2.h documents for a complete block (in_final = 1). */
static int decode(void *dec, const struct bytes *wire, hpack_header_cb cb, void *arg) {
    const uint8_t *in = wire->p;
    size_t inlen = wire->len;
    for (;;) {
        nghttp2_nv nv;
        int flags = 0;
        ssize_t rv = nghttp2_hd_inflate_hd2(dec, &nv, &flags, in, inlen, 1);
        if (rv < 0) return (int)rv;
        in += rv;
        inlen -= (size_t)rv;
        if (flags & NGHTTP2_HD_INFLATE_EMIT) {
            struct hpack_header h = { nv.name, nv.namelen, nv.value, nv.valuelen, 0 };
            if (cb(arg, &h) != 0) return 1;
        }
        if (flags & NGHTTP2_HD_INFLATE_FINAL) {
            nghttp2_hd_inflate_end_headers(dec);
            return 0;
        }
        if (!(flags & NGHTTP2_HD_INFLATE_EMIT) && inlen == 0) return 0;
    }
}

const struct codec codec_nghttp2 = {
    .name = "nghttp2",
    .strategy = NULL,
    .prepare = prepare,
    .release = release,
    .encode_bound = encode_bound,
    .decoder_new = inflater_new,
    .decoder_free = inflater_free,
    .decode = decode,
    .encoder_new = deflater_new,
    .encoder_free = deflater_free,
    .encode = encode,
};
