/* qpack_internal.h: functions of the QPACK core that only its tests and
 * fuzz targets use, kept out of the public qpack.h. */
#ifndef QPACK_INTERNAL_H
#define QPACK_INTERNAL_H

#include "qpack.h"

/* The decoder's state: inserts received, streams blocked, table size (sum of
 * name + value + 32), and the entry with absolute index abs (HPACK_OK, or
 * HPACK_ERR_INDEX when there is no such entry). */
uint64_t qpack_decoder_insert_count(const struct qpack_decoder *dec);
size_t qpack_decoder_blocked_streams(const struct qpack_decoder *dec);
size_t qpack_decoder_table_size(const struct qpack_decoder *dec);
int qpack_decoder_table_entry(const struct qpack_decoder *dec, uint64_t abs, struct hpack_header *out);

#endif
