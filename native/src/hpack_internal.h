/* hpack_internal.h: functions of the HPACK core that only its tests, fuzz
 * targets and benchmarks use; the Node binding needs none of them, so they
 * stay out of the public hpack.h. */
#ifndef HPACK_INTERNAL_H
#define HPACK_INTERNAL_H

#include "hpack.h"

/* Huffman baselines (huffman_baseline.c), kept for differential tests and
 * benchmarks: the classic 4-bit state-machine decoder, a bit-by-bit tree walk,
 * and a byte-at-a-time encoder. Same contracts and error codes as
 * hpack_huffman_decode and hpack_huffman_encode: HPACK_ERR_HUFFMAN (decoders:
 * EOS in the string, padding over 7 bits or not all ones) and
 * HPACK_ERR_BUFFER_TOO_SMALL. */
ssize_t hpack_huffman_decode_4bit(const uint8_t *src, size_t len, uint8_t *dst, size_t cap);
ssize_t hpack_huffman_decode_bitwise(const uint8_t *src, size_t len, uint8_t *dst, size_t cap);
ssize_t hpack_huffman_encode_bytewise(const uint8_t *src, size_t len, uint8_t *dst, size_t cap);

/* The dynamic tables, to check the codec's state: number of entries, size
 * (sum of name + value + 32), and entry i (1 = newest). The entry functions
 * return HPACK_OK, or HPACK_ERR_INDEX when there is no such entry. */
size_t hpack_encoder_table_len(const struct hpack_encoder *enc);
size_t hpack_encoder_table_size(const struct hpack_encoder *enc);
int hpack_encoder_table_entry(const struct hpack_encoder *enc, size_t i, struct hpack_header *out);
size_t hpack_decoder_table_len(const struct hpack_decoder *dec);
size_t hpack_decoder_table_size(const struct hpack_decoder *dec);
int hpack_decoder_table_entry(const struct hpack_decoder *dec, size_t i, struct hpack_header *out);

#endif
