/* The QPACK decoder: encoder-stream instructions into the dynamic table, field
 * sections out through a callback, blocked sections queued until their
 * inserts arrive, acknowledgments out on the decoder stream. */
#include <stdlib.h>
#include <string.h>
#include "dynamic_table.h"
#include "integer.h"
#include "qpack.h"
#include "qpack_buffer.h"
#include "qpack_static_table.h"
#include "qpack_wire.h"
#include "string_literal.h"
#include "qpack_internal.h"

/* A section waiting for inserts: its field lines, after the prefix. */
struct blocked_section {
    uint64_t stream_id;
    uint64_t ric;
    uint64_t base;
    uint8_t *lines;
    size_t len;
};

struct qpack_decoder {
    struct hpack_dyn_table table; /* absolute index a is entry id a + 1 */
    struct qpack_decoder_settings s;
    struct qpack_buf out;         /* decoder-stream bytes for the peer */
    struct qpack_buf partial;     /* an encoder instruction still incomplete */
    uint8_t *scratch;             /* Huffman-decoded strings */
    size_t scratch_cap;
    struct blocked_section *blocked; /* in arrival order */
    size_t nblocked;
    size_t blocked_bytes;
    uint64_t acked_inserts;       /* the peer's Known Received Count */
    const char *reason;
    int poisoned;
};

/* Where a section's dynamic references may point, and what they did point to. */
struct section {
    uint64_t stream_id;
    uint64_t ric;
    uint64_t base;
    uint64_t max_ref; /* largest absolute index referenced, plus one */
};

static int fail(struct qpack_decoder *dec, int err, const char *reason)
{
    dec->reason = reason;
    if (err == QPACK_ERR_DECOMPRESSION_FAILED || err == QPACK_ERR_ENCODER_STREAM || err == QPACK_ERR_NOMEM)
        dec->poisoned = 1;
    return err;
}

/* An HPACK-level failure inside a field section or an encoder instruction. */
static int fail_hpack(struct qpack_decoder *dec, int rc, int qpack_class)
{
    if (rc == HPACK_ERR_STRING_TOO_LONG)
        return fail(dec, QPACK_ERR_FIELD_SECTION_TOO_LARGE, hpack_error_description(rc));
    if (rc == HPACK_ERR_NOMEM)
        return fail(dec, QPACK_ERR_NOMEM, "out of memory");
    return fail(dec, qpack_class, hpack_error_description(rc));
}

struct qpack_decoder *qpack_decoder_new(const struct qpack_decoder_settings *settings)
{
    struct qpack_decoder *dec;

    if (!settings || settings->max_table_capacity > HPACK_MAX_TABLE_SIZE)
        return NULL;
    dec = calloc(1, sizeof *dec);
    if (!dec)
        return NULL;
    dec->s = *settings;
    dec->reason = "no error";
    if (hpack_dyn_init(&dec->table, settings->max_table_capacity) != HPACK_OK) {
        free(dec);
        return NULL;
    }
    /* The table starts at capacity 0 until the encoder sets it (RFC 9204 3.2.3). */
    hpack_dyn_set_max_size(&dec->table, 0);
    return dec;
}

void qpack_decoder_free(struct qpack_decoder *dec)
{
    if (!dec)
        return;
    for (size_t i = 0; i < dec->nblocked; i++)
        free(dec->blocked[i].lines);
    free(dec->blocked);
    free(dec->scratch);
    qpack_buf_free(&dec->out);
    qpack_buf_free(&dec->partial);
    hpack_dyn_free(&dec->table);
    free(dec);
}

uint64_t qpack_decoder_insert_count(const struct qpack_decoder *dec)
{
    return dec->table.next_id - 1;
}

size_t qpack_decoder_table_size(const struct qpack_decoder *dec)
{
    return dec->table.size;
}

const char *qpack_decoder_error_reason(const struct qpack_decoder *dec)
{
    return dec->reason;
}

int qpack_decoder_table_entry(const struct qpack_decoder *dec, uint64_t abs, struct hpack_header *out)
{
    if (abs >= UINT64_MAX - 1 || !hpack_dyn_is_live(&dec->table, abs + 1))
        return HPACK_ERR_INDEX;
    return hpack_dyn_entry_at(&dec->table, hpack_dyn_index_of(&dec->table, abs + 1), out);
}

/* Whether one of the first n queued sections belongs to stream_id. */
static int queued_before(const struct qpack_decoder *dec, size_t n, uint64_t stream_id)
{
    for (size_t i = 0; i < n; i++)
        if (dec->blocked[i].stream_id == stream_id)
            return 1;
    return 0;
}

size_t qpack_decoder_blocked_streams(const struct qpack_decoder *dec)
{
    size_t n = 0;
    for (size_t i = 0; i < dec->nblocked; i++)
        n += !queued_before(dec, i, dec->blocked[i].stream_id);
    return n;
}

/* ---- Decoder stream --------------------------------------------------- */

static size_t increment_size(const struct qpack_decoder *dec)
{
    uint64_t inserts = qpack_decoder_insert_count(dec);
    return inserts > dec->acked_inserts ? hpack_int_size((uint32_t)(inserts - dec->acked_inserts), 6) : 0;
}

size_t qpack_decoder_stream_pending(const struct qpack_decoder *dec)
{
    return dec->out.len + increment_size(dec);
}

size_t qpack_decoder_read_stream(struct qpack_decoder *dec, uint8_t *dst, size_t cap)
{
    size_t n = increment_size(dec);

    /* Acknowledging inserts as late as possible lets Section Acknowledgments,
     * which acknowledge them too, make the increment smaller or needless. */
    if (n && qpack_buf_reserve(&dec->out, n) == QPACK_OK) {
        uint64_t inserts = qpack_decoder_insert_count(dec);
        dec->out.len += hpack_int_encode(dec->out.data + dec->out.len, QPACK_INSERT_COUNT_INC, 6,
                                         (uint32_t)(inserts - dec->acked_inserts));
        dec->acked_inserts = inserts;
    }
    return qpack_buf_take(&dec->out, dst, cap);
}

/* Queue a decoder instruction carrying a stream id. */
static int emit_stream_instruction(struct qpack_decoder *dec, uint8_t first, unsigned prefix, uint64_t stream_id)
{
    if (qpack_buf_reserve(&dec->out, 6) != QPACK_OK)
        return fail(dec, QPACK_ERR_NOMEM, "out of memory");
    dec->out.len += hpack_int_encode(dec->out.data + dec->out.len, first, prefix, (uint32_t)stream_id);
    return QPACK_OK;
}

static void drop_blocked(struct qpack_decoder *dec, size_t i)
{
    dec->blocked_bytes -= dec->blocked[i].len;
    free(dec->blocked[i].lines);
    memmove(&dec->blocked[i], &dec->blocked[i + 1], (dec->nblocked - i - 1) * sizeof dec->blocked[0]);
    dec->nblocked--;
}

int qpack_decoder_cancel_stream(struct qpack_decoder *dec, uint64_t stream_id)
{
    if (!dec || stream_id > QPACK_MAX_STREAM_ID)
        return QPACK_ERR_INVALID_ARGUMENT;
    for (size_t i = dec->nblocked; i-- > 0;)
        if (dec->blocked[i].stream_id == stream_id)
            drop_blocked(dec, i);
    /* With no table there is nothing to release (RFC 9204 4.4.2). */
    if (dec->s.max_table_capacity == 0)
        return QPACK_OK;
    return emit_stream_instruction(dec, QPACK_STREAM_CANCEL, 6, stream_id);
}

/* ---- Field sections --------------------------------------------------- */

/* RFC 9204 4.5.1.1: the Required Insert Count from its encoding. */
static int decode_ric(struct qpack_decoder *dec, uint32_t encoded, uint64_t *ric)
{
    uint64_t max_entries = qpack_max_entries(dec->s.max_table_capacity);
    uint64_t full_range = 2 * max_entries, max_value, v;

    *ric = 0;
    if (encoded == 0)
        return QPACK_OK;
    if (encoded > full_range)
        return fail(dec, QPACK_ERR_DECOMPRESSION_FAILED, "encoded Required Insert Count out of range");
    max_value = qpack_decoder_insert_count(dec) + max_entries;
    v = max_value / full_range * full_range + encoded - 1;
    if (v > max_value) {
        if (v <= full_range)
            return fail(dec, QPACK_ERR_DECOMPRESSION_FAILED, "encoded Required Insert Count out of range");
        v -= full_range;
    }
    if (v == 0)
        return fail(dec, QPACK_ERR_DECOMPRESSION_FAILED, "Required Insert Count of 0 encoded as non-zero");
    *ric = v;
    return QPACK_OK;
}

static int read_prefix(struct qpack_decoder *dec, const uint8_t **p, const uint8_t *end, struct section *sec)
{
    uint32_t encoded, delta;
    int negative, rc = hpack_int_decode(p, end, 8, &encoded);

    if (rc == HPACK_OK)
        rc = decode_ric(dec, encoded, &sec->ric);
    if (rc != HPACK_OK)
        return rc < -0x100 ? rc : fail_hpack(dec, rc, QPACK_ERR_DECOMPRESSION_FAILED);
    if (*p == end)
        return fail(dec, QPACK_ERR_DECOMPRESSION_FAILED, "field section ends inside its prefix");
    negative = **p & 0x80;
    rc = hpack_int_decode(p, end, 7, &delta);
    if (rc != HPACK_OK)
        return fail_hpack(dec, rc, QPACK_ERR_DECOMPRESSION_FAILED);
    if (negative && sec->ric <= delta)
        return fail(dec, QPACK_ERR_DECOMPRESSION_FAILED, "Base below zero");
    sec->base = negative ? sec->ric - delta - 1 : sec->ric + delta;
    sec->max_ref = 0;
    return QPACK_OK;
}

/* The dynamic entry at absolute index abs, which the section may reference. */
static int dynamic_entry(struct qpack_decoder *dec, struct section *sec, uint64_t abs, struct hpack_header *h)
{
    if (abs >= sec->ric)
        return fail(dec, QPACK_ERR_DECOMPRESSION_FAILED, "reference at or past the Required Insert Count");
    if (!hpack_dyn_is_live(&dec->table, abs + 1))
        return fail(dec, QPACK_ERR_DECOMPRESSION_FAILED, "reference to an evicted entry");
    if (abs + 1 > sec->max_ref)
        sec->max_ref = abs + 1;
    return hpack_dyn_entry_at(&dec->table, hpack_dyn_index_of(&dec->table, abs + 1), h);
}

static int static_entry(struct qpack_decoder *dec, uint32_t idx, struct hpack_header *h)
{
    const struct hpack_static_entry *e;

    if (idx >= QPACK_STATIC_TABLE_LEN)
        return fail(dec, QPACK_ERR_DECOMPRESSION_FAILED, "static index past the table");
    e = &qpack_static_table[idx];
    h->name = (const uint8_t *)e->name;
    h->name_len = e->name_len;
    h->value = (const uint8_t *)e->value;
    h->value_len = e->value_len;
    return QPACK_OK;
}

/* A relative index (Base - 1 - idx) or post-base index (Base + idx) as absolute. */
static int relative_entry(struct qpack_decoder *dec, struct section *sec, uint32_t idx, int post_base,
                          struct hpack_header *h)
{
    if (!post_base && idx >= sec->base)
        return fail(dec, QPACK_ERR_DECOMPRESSION_FAILED, "relative index below absolute index 0");
    return dynamic_entry(dec, sec, post_base ? sec->base + idx : sec->base - 1 - idx, h);
}

/* One field line at *p. */
static int read_line(struct qpack_decoder *dec, struct section *sec, const uint8_t **p, const uint8_t *end,
                     struct hpack_scratch *sc, struct hpack_header *h)
{
    uint8_t b = **p;
    uint32_t idx;
    int rc, literal_name = 0, never;

    h->flags = 0;
    if (b & 0x80) {
        rc = hpack_int_decode(p, end, 6, &idx);
        if (rc != HPACK_OK)
            return fail_hpack(dec, rc, QPACK_ERR_DECOMPRESSION_FAILED);
        return b & QPACK_FL_STATIC ? static_entry(dec, idx, h) : relative_entry(dec, sec, idx, 0, h);
    }
    if ((b & 0xf0) == QPACK_FL_POST_BASE) {
        rc = hpack_int_decode(p, end, 4, &idx);
        if (rc != HPACK_OK)
            return fail_hpack(dec, rc, QPACK_ERR_DECOMPRESSION_FAILED);
        return relative_entry(dec, sec, idx, 1, h);
    }
    if (b & QPACK_FL_NAME_REF) {
        never = b & QPACK_FL_NAME_REF_N;
        rc = hpack_int_decode(p, end, 4, &idx);
        if (rc != HPACK_OK)
            return fail_hpack(dec, rc, QPACK_ERR_DECOMPRESSION_FAILED);
        rc = b & QPACK_FL_NAME_REF_STATIC ? static_entry(dec, idx, h) : relative_entry(dec, sec, idx, 0, h);
    } else if (b & QPACK_FL_LITERAL_NAME) {
        never = b & QPACK_FL_LITERAL_NAME_N;
        literal_name = 1;
        rc = hpack_string_decode(p, end, 3, dec->s.max_string_length, sc, &h->name, &h->name_len);
    } else {
        never = b & QPACK_FL_POST_BASE_NAME_N;
        rc = hpack_int_decode(p, end, 3, &idx);
        if (rc != HPACK_OK)
            return fail_hpack(dec, rc, QPACK_ERR_DECOMPRESSION_FAILED);
        rc = relative_entry(dec, sec, idx, 1, h);
    }
    if (rc != HPACK_OK)
        return literal_name ? fail_hpack(dec, rc, QPACK_ERR_DECOMPRESSION_FAILED) : rc;
    rc = hpack_string_decode(p, end, 7, dec->s.max_string_length, sc, &h->value, &h->value_len);
    /* Set last: looking up a dynamic name clears the flags. */
    h->flags = never ? HPACK_HEADER_NEVER_INDEXED : 0;
    return rc == HPACK_OK ? QPACK_OK : fail_hpack(dec, rc, QPACK_ERR_DECOMPRESSION_FAILED);
}

/* Decode the field lines of a section whose inserts have all arrived. */
static int decode_lines(struct qpack_decoder *dec, struct section *sec, const uint8_t *p, const uint8_t *end,
                        qpack_field_cb cb, void *ctx)
{
    struct hpack_scratch sc;
    struct hpack_header h;
    uint64_t size = 0;
    int rc = hpack_scratch_reserve(&dec->scratch, &dec->scratch_cap, hpack_scratch_need((size_t)(end - p)));

    /* The acknowledgment is reserved first so that nothing fails after the callbacks. */
    if (rc == HPACK_OK)
        rc = qpack_buf_reserve(&dec->out, 6);
    if (rc != HPACK_OK)
        return fail(dec, QPACK_ERR_NOMEM, "out of memory");
    sc.pos = dec->scratch;
    sc.end = dec->scratch + dec->scratch_cap;
    while (p < end) {
        rc = read_line(dec, sec, &p, end, &sc, &h);
        if (rc != QPACK_OK)
            return rc;
        size += h.name_len + h.value_len + HPACK_ENTRY_OVERHEAD;
        if (size > dec->s.max_field_section_size)
            return fail(dec, QPACK_ERR_FIELD_SECTION_TOO_LARGE, "decoded field section exceeds its limit");
        rc = cb(ctx, sec->stream_id, &h);
        if (rc)
            return rc;
    }
    /* A conformant encoder declares exactly the inserts it references (4.5.1.1). */
    if (sec->max_ref != sec->ric)
        return fail(dec, QPACK_ERR_DECOMPRESSION_FAILED, "Required Insert Count above the entries referenced");
    rc = cb(ctx, sec->stream_id, NULL);
    if (rc)
        return rc;
    if (sec->ric) {
        emit_stream_instruction(dec, QPACK_SECTION_ACK, 7, sec->stream_id);
        if (sec->ric > dec->acked_inserts)
            dec->acked_inserts = sec->ric;
    }
    return QPACK_OK;
}

static int queue_blocked(struct qpack_decoder *dec, const struct section *sec, const uint8_t *p, size_t len)
{
    struct blocked_section *list, *b;

    /* One stream past the limit we advertised is the peer's error (RFC 9204 2.1.2). */
    if (!queued_before(dec, dec->nblocked, sec->stream_id) &&
        qpack_decoder_blocked_streams(dec) >= dec->s.max_blocked_streams)
        return fail(dec, QPACK_ERR_DECOMPRESSION_FAILED, "more blocked streams than SETTINGS_QPACK_BLOCKED_STREAMS");
    if (dec->blocked_bytes + len > dec->s.max_blocked_bytes)
        return fail(dec, QPACK_ERR_BLOCKED_TOO_LARGE, "blocked field sections exceed their memory limit");
    list = realloc(dec->blocked, (dec->nblocked + 1) * sizeof *list);
    if (!list)
        return fail(dec, QPACK_ERR_NOMEM, "out of memory");
    dec->blocked = list;
    b = &list[dec->nblocked];
    b->lines = malloc(len ? len : 1);
    if (!b->lines)
        return fail(dec, QPACK_ERR_NOMEM, "out of memory");
    if (len)
        memcpy(b->lines, p, len);
    b->len = len;
    b->stream_id = sec->stream_id;
    b->ric = sec->ric;
    b->base = sec->base;
    dec->nblocked++;
    dec->blocked_bytes += len;
    return QPACK_BLOCKED;
}

int qpack_decoder_decode(struct qpack_decoder *dec, uint64_t stream_id, const uint8_t *src, size_t len,
                         qpack_field_cb cb, void *ctx)
{
    struct section sec;
    const uint8_t *p = src, *end = src + len;
    int rc;

    if (!dec || (!src && len) || !cb || stream_id > QPACK_MAX_STREAM_ID)
        return QPACK_ERR_INVALID_ARGUMENT;
    if (dec->poisoned)
        return QPACK_ERR_POISONED;
    sec.stream_id = stream_id;
    rc = read_prefix(dec, &p, end, &sec);
    if (rc != QPACK_OK)
        return rc;
    /* A later section of a stream whose earlier one waits must wait behind it. */
    if (sec.ric > qpack_decoder_insert_count(dec) || queued_before(dec, dec->nblocked, stream_id))
        return queue_blocked(dec, &sec, p, (size_t)(end - p));
    return decode_lines(dec, &sec, p, end, cb, ctx);
}

/* ---- Encoder stream --------------------------------------------------- */

static int insert(struct qpack_decoder *dec, const uint8_t *name, size_t name_len, const uint8_t *value,
                  size_t value_len)
{
    if (name_len + value_len + HPACK_ENTRY_OVERHEAD > dec->table.max_size)
        return fail(dec, QPACK_ERR_ENCODER_STREAM, "inserted entry larger than the table capacity");
    hpack_dyn_insert(&dec->table, name, name_len, value, value_len);
    return QPACK_OK;
}

/* The entry an encoder instruction names by relative index (Insert Count - 1 - idx). */
static int instruction_entry(struct qpack_decoder *dec, uint32_t idx, struct hpack_header *h)
{
    uint64_t inserts = qpack_decoder_insert_count(dec);

    if (idx >= inserts || !hpack_dyn_is_live(&dec->table, inserts - idx))
        return fail(dec, QPACK_ERR_ENCODER_STREAM, "instruction references a missing entry");
    return hpack_dyn_entry_at(&dec->table, idx + 1, h);
}

static int duplicate(struct qpack_decoder *dec, uint32_t idx)
{
    struct hpack_header h;
    int rc = instruction_entry(dec, idx, &h);

    if (rc != QPACK_OK)
        return rc;
    /* The insert may evict the entry it copies, so copy it out first. */
    if (hpack_scratch_reserve(&dec->scratch, &dec->scratch_cap, h.name_len + h.value_len + 1) != HPACK_OK)
        return fail(dec, QPACK_ERR_NOMEM, "out of memory");
    memcpy(dec->scratch, h.name, h.name_len);
    memcpy(dec->scratch + h.name_len, h.value, h.value_len);
    return insert(dec, dec->scratch, h.name_len, dec->scratch + h.name_len, h.value_len);
}

/* Apply the encoder instruction at *p (a qpack_apply_fn). */
static int apply_instruction(void *state, const uint8_t **p, const uint8_t *end)
{
    struct qpack_decoder *dec = state;
    struct hpack_scratch sc = { dec->scratch, dec->scratch + dec->scratch_cap };
    struct hpack_header h;
    uint8_t b = **p;
    uint32_t v;
    int rc;

    if (b & QPACK_INSERT_NAME_REF) {
        rc = hpack_int_decode(p, end, 6, &v);
        if (rc == HPACK_OK)
            rc = b & QPACK_INSERT_STATIC ? static_entry(dec, v, &h) : instruction_entry(dec, v, &h);
        if (rc == QPACK_ERR_DECOMPRESSION_FAILED)
            return fail(dec, QPACK_ERR_ENCODER_STREAM, "static index past the table");
    } else if (b & QPACK_INSERT_LITERAL_NAME) {
        rc = hpack_string_decode(p, end, 5, dec->s.max_string_length, &sc, &h.name, &h.name_len);
    } else {
        rc = hpack_int_decode(p, end, 5, &v);
        if (rc != HPACK_OK)
            return rc == HPACK_ERR_TRUNCATED ? rc : fail_hpack(dec, rc, QPACK_ERR_ENCODER_STREAM);
        if (!(b & QPACK_SET_CAPACITY))
            return duplicate(dec, v);
        if (v > dec->s.max_table_capacity)
            return fail(dec, QPACK_ERR_ENCODER_STREAM, "table capacity above SETTINGS_QPACK_MAX_TABLE_CAPACITY");
        hpack_dyn_set_max_size(&dec->table, v);
        return QPACK_OK;
    }
    if (rc == HPACK_OK)
        rc = hpack_string_decode(p, end, 7, dec->s.max_string_length, &sc, &h.value, &h.value_len);
    if (rc == HPACK_ERR_TRUNCATED || rc < -0x100)
        return rc;
    /* An entry is connection state: one we cannot store ends the connection. */
    if (rc == HPACK_ERR_STRING_TOO_LONG)
        return fail(dec, QPACK_ERR_ENCODER_STREAM, "inserted string longer than max_string_length");
    if (rc != HPACK_OK)
        return fail_hpack(dec, rc, QPACK_ERR_ENCODER_STREAM);
    return insert(dec, h.name, h.name_len, h.value, h.value_len);
}

/* Decode the queued sections whose inserts have arrived, oldest first. */
static int resume_ready(struct qpack_decoder *dec, qpack_field_cb cb, void *ctx)
{
    uint64_t inserts = qpack_decoder_insert_count(dec);

    for (size_t i = 0; i < dec->nblocked;) {
        struct blocked_section b = dec->blocked[i];
        struct section sec = { b.stream_id, b.ric, b.base, 0 };
        int rc;
        if (b.ric > inserts || queued_before(dec, i, b.stream_id)) {
            i++;
            continue;
        }
        dec->blocked[i].lines = NULL;
        drop_blocked(dec, i);
        rc = decode_lines(dec, &sec, b.lines, b.lines + b.len, cb, ctx);
        free(b.lines);
        if (rc != QPACK_OK)
            return rc;
    }
    return QPACK_OK;
}

int qpack_decoder_feed_encoder(struct qpack_decoder *dec, const uint8_t *src, size_t len, qpack_field_cb cb,
                               void *ctx)
{
    int rc;

    if (!dec || (!src && len) || !cb)
        return QPACK_ERR_INVALID_ARGUMENT;
    if (dec->poisoned)
        return QPACK_ERR_POISONED;
    /* Strings decode into the scratch space: room for what this call may hold. */
    if (hpack_scratch_reserve(&dec->scratch, &dec->scratch_cap, hpack_scratch_need(dec->partial.len + len)) != HPACK_OK)
        return fail(dec, QPACK_ERR_NOMEM, "out of memory");
    rc = qpack_buf_feed(&dec->partial, src, len, apply_instruction, dec);
    if (rc == QPACK_ERR_NOMEM)
        return fail(dec, rc, "out of memory");
    if (rc != QPACK_OK)
        return rc;
    return resume_ready(dec, cb, ctx);
}
