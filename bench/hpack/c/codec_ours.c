/* The project's HPACK codec (native/include/hpack.h) behind struct codec. */
#include <stdint.h>

#include "codec.h"
#include "converted.h"
#include "fail.h"

static void to_hpack_header(const struct header *in, void *out) {
    *(struct hpack_header *)out = (struct hpack_header){ in->name.p, in->name.len, in->value.p, in->value.len, 0 };
}

static void *prepare(const struct story_set *set) {
    return converted_new(set, sizeof(struct hpack_header), to_hpack_header);
}

static void release(void *prepared) {
    converted_free(prepared);
}

static void *decoder_new(void) {
    /* No list or string limit: the corpus holds real traffic, and limits are
     * the server's policy, not part of what is being timed. */
    struct hpack_decoder_limits limits = { HPACK_DEFAULT_TABLE_SIZE, UINT32_MAX, UINT32_MAX };
    struct hpack_decoder *dec = hpack_decoder_new(&limits);
    if (!dec) fail("hpack_decoder_new failed");
    return dec;
}

static void decoder_free(void *dec) {
    hpack_decoder_free(dec);
}

static int decode(void *dec, const struct bytes *wire, hpack_header_cb cb, void *arg) {
    ssize_t n = hpack_decoder_decode(dec, wire->p, wire->len, cb, arg);
    return n < 0 ? (int)n : 0;
}

#define ENCODER_NEW(fn, indexing, flags)                                            \
    static void *fn(void) {                                                         \
        struct hpack_encoder *enc =                                                 \
            hpack_encoder_new(HPACK_DEFAULT_TABLE_SIZE, indexing, flags);           \
        if (!enc) fail("hpack_encoder_new failed");                                 \
        return enc;                                                                 \
    }
ENCODER_NEW(new_linear_huffman, HPACK_INDEX_LINEAR, HPACK_ENCODER_HUFFMAN)
ENCODER_NEW(new_linear, HPACK_INDEX_LINEAR, 0)
ENCODER_NEW(new_static_huffman, HPACK_INDEX_STATIC, HPACK_ENCODER_HUFFMAN)
ENCODER_NEW(new_static, HPACK_INDEX_STATIC, 0)
ENCODER_NEW(new_none_huffman, HPACK_INDEX_NONE, HPACK_ENCODER_HUFFMAN)
ENCODER_NEW(new_none, HPACK_INDEX_NONE, 0)

static void encoder_free(void *enc) {
    hpack_encoder_free(enc);
}

static size_t encode_bound(void *enc, const void *prepared, size_t story, size_t block) {
    size_t n;
    const struct hpack_header *h = converted_block(prepared, story, block, &n);
    return hpack_encoder_bound(enc, h, n);
}

static ssize_t encode(void *enc, const void *prepared, size_t story, size_t block, uint8_t *out, size_t cap) {
    size_t n;
    const struct hpack_header *h = converted_block(prepared, story, block, &n);
    return hpack_encoder_encode(enc, h, n, out, cap);
}

#define OURS(strategy_name, new_fn)                                                    \
    { .name = "ours", .strategy = strategy_name, .prepare = prepare, .release = release, \
      .encode_bound = encode_bound, .decoder_new = decoder_new, .decoder_free = decoder_free, \
      .decode = decode, .encoder_new = new_fn, .encoder_free = encoder_free, .encode = encode }

const struct codec codec_ours[] = {
    OURS("linear-huffman", new_linear_huffman),
    OURS("linear", new_linear),
    OURS("static-huffman", new_static_huffman),
    OURS("static", new_static),
    OURS("none-huffman", new_none_huffman),
    OURS("none", new_none),
    { .name = NULL },
};
