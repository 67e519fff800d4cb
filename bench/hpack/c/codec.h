/* One interface over the two HPACK codecs under test (the project's and
 * libnghttp2's), so verification and timing run the same code for both.
 * Every decoder and encoder starts with the default 4096-byte table. */
#ifndef BENCH_CODEC_H
#define BENCH_CODEC_H
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "hpack.h"
#include "workload.h"

/* Decoded headers reach the caller through the project's callback type for
 * both libraries (one indirect call per header either way); the views are
 * valid only during the call, as libnghttp2 recycles them on its next call. */

struct codec {
    const char *name;      /* library: "ours" or "nghttp2" */
    const char *strategy;  /* encoding strategy, NULL for libnghttp2's only one */
    /* Converts every header list of a story set into the library's own input
     * form once, so the timed loops never pay for the conversion. */
    void *(*prepare)(const struct story_set *set);
    void (*release)(void *prepared);

    void *(*decoder_new)(void);
    void (*decoder_free)(void *dec);
    /* 0 on success, nonzero on a decoding error or when cb stops. */
    int (*decode)(void *dec, const struct bytes *wire, hpack_header_cb cb, void *arg);

    void *(*encoder_new)(void);
    void (*encoder_free)(void *enc);
    /* An upper bound on what encode writes for this block. */
    size_t (*encode_bound)(void *enc, const void *prepared, size_t story, size_t block);
    ssize_t (*encode)(void *enc, const void *prepared, size_t story, size_t block,
                      uint8_t *out, size_t cap);
};

extern const struct codec codec_nghttp2;
/* The project's codec with each of its six strategies, the default
 * (linear-huffman) first, terminated by an entry with a NULL name. */
extern const struct codec codec_ours[];

#endif
