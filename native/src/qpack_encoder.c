/* The QPACK encoder: the strategy described in qpack.h, encoder-stream
 * instructions out, decoder-stream acknowledgments in, and the bookkeeping
 * that keeps it from blocking too many streams or evicting referenced entries. */
#include <stdlib.h>
#include <string.h>
#include "field_rules.h"
#include "header_index.h"
#include "integer.h"
#include "qpack.h"
#include "qpack_buffer.h"
#include "qpack_static_table.h"
#include "qpack_wire.h"
#include "repeat_memory.h"
#include "string_literal.h"

/* A field that may not be referenced yet (it would block one stream too many)
 * is still inserted when it has been seen before, betting that the decoder
 * acknowledges the insert before the field comes again. While this many
 * inserts are unacknowledged the bet is off: the decoder is not answering. */
#define SPECULATIVE_INSERTS 8
/* Fields recently seen, by fingerprint (hpack_field_fingerprint, so every
 * encoder remembers and forgets the same ones), direct-mapped. */
#define SEEN_SLOTS 256

/* A field section that references the dynamic table and is not yet acknowledged. */
struct outstanding {
    uint64_t stream_id;
    uint64_t ric;
    uint64_t min_ref; /* smallest absolute index it references */
};

struct qpack_encoder {
    struct hpack_dyn_table table; /* absolute index a is entry id a + 1 */
    struct hpack_header_index index;
    struct qpack_encoder_settings s;
    struct qpack_buf out;     /* encoder-stream bytes for the peer */
    struct qpack_buf partial; /* a decoder instruction still incomplete */
    uint8_t *dup_copy;        /* room for one entry's bytes, for Duplicate */
    uint64_t seen[SEEN_SLOTS];
    struct outstanding *sections;
    size_t nsections;
    size_t sections_cap;
    uint64_t krc;             /* Known Received Count */
    int huffman;
    int index_short_cookies;
    int index_volatile;
    int learn; /* skip fields whose entries are not reused, as HPACK's linear encoder does */
    int capacity_sent;
    int poisoned;
    const char *reason;
    struct hpack_repeat_memory repeats;
};

/* The section being encoded. */
struct section {
    uint64_t stream_id;
    uint64_t base;    /* Insert Count when it began: later entries are post-base */
    uint64_t ric;
    uint64_t min_ref;
    int may_block;    /* it may reference entries the decoder has not acknowledged */
};

/* Worst case per field: two 6-byte integers and both strings plain. */
#define MAX_INT_BYTES 6
#define PREFIX_MAX (2 * MAX_INT_BYTES)

struct qpack_encoder *qpack_encoder_new(const struct qpack_encoder_settings *settings)
{
    struct qpack_encoder *enc;

    if (!settings || settings->table_capacity > settings->max_table_capacity ||
        settings->table_capacity > HPACK_MAX_TABLE_SIZE)
        return NULL;
    enc = calloc(1, sizeof *enc);
    if (!enc)
        return NULL;
    enc->s = *settings;
    enc->huffman = (settings->flags & HPACK_ENCODER_HUFFMAN) != 0;
    enc->index_short_cookies = (settings->flags & HPACK_ENCODER_INDEX_SHORT_COOKIES) != 0;
    enc->index_volatile = (settings->flags & HPACK_ENCODER_INDEX_VOLATILE) != 0;
    enc->learn = !enc->index_volatile && !(settings->flags & HPACK_ENCODER_FIXED_RULES);
    enc->reason = "no error";
    enc->dup_copy = malloc(settings->table_capacity + 1u);
    if (!enc->dup_copy || hpack_dyn_init(&enc->table, settings->table_capacity) != HPACK_OK)
        goto fail;
    hpack_dyn_set_max_size(&enc->table, settings->table_capacity);
    enc->index.seed = (uint64_t)(uintptr_t)enc * HPACK_HASH_K;
    if (hpack_index_build(&enc->index, &enc->table, enc->table.mask) != HPACK_OK)
        goto fail;
    return enc;
fail:
    qpack_encoder_free(enc);
    return NULL;
}

void qpack_encoder_free(struct qpack_encoder *enc)
{
    if (!enc)
        return;
    hpack_index_free(&enc->index);
    hpack_dyn_free(&enc->table);
    qpack_buf_free(&enc->out);
    qpack_buf_free(&enc->partial);
    free(enc->sections);
    free(enc->dup_copy);
    free(enc);
}

uint64_t qpack_encoder_insert_count(const struct qpack_encoder *enc)
{
    return enc->table.next_id - 1;
}

uint64_t qpack_encoder_known_received_count(const struct qpack_encoder *enc)
{
    return enc->krc;
}

const char *qpack_encoder_error_reason(const struct qpack_encoder *enc)
{
    return enc->reason;
}

size_t qpack_encoder_stream_pending(const struct qpack_encoder *enc)
{
    return enc->out.len;
}

size_t qpack_encoder_read_stream(struct qpack_encoder *enc, uint8_t *dst, size_t cap)
{
    return qpack_buf_take(&enc->out, dst, cap);
}

static int stream_blocked(const struct qpack_encoder *enc, size_t n, uint64_t stream_id)
{
    for (size_t i = 0; i < n; i++)
        if (enc->sections[i].stream_id == stream_id && enc->sections[i].ric > enc->krc)
            return 1;
    return 0;
}

size_t qpack_encoder_blocked_streams(const struct qpack_encoder *enc)
{
    size_t n = 0;
    for (size_t i = 0; i < enc->nsections; i++)
        n += enc->sections[i].ric > enc->krc && !stream_blocked(enc, i, enc->sections[i].stream_id);
    return n;
}

void qpack_encoder_assume_acknowledged(struct qpack_encoder *enc)
{
    /* An offline peer has read every insert before the sections after them. */
    enc->nsections = 0;
    enc->krc = qpack_encoder_insert_count(enc);
}

size_t qpack_encoder_bound(const struct qpack_encoder *enc, const struct hpack_header *fields, size_t count)
{
    size_t n = PREFIX_MAX;
    (void)enc;
    for (size_t i = 0; i < count; i++)
        n += 3 * MAX_INT_BYTES + fields[i].name_len + fields[i].value_len;
    return n;
}

/* ---- Table bookkeeping ------------------------------------------------ */

static void note_ref(struct section *sec, uint64_t abs)
{
    if (abs + 1 > sec->ric)
        sec->ric = abs + 1;
    if (abs < sec->min_ref)
        sec->min_ref = abs;
}

/* The section may reference this entry without blocking more streams than allowed. */
static int may_reference(const struct qpack_encoder *enc, const struct section *sec, uint64_t abs)
{
    return hpack_dyn_is_live(&enc->table, abs + 1) && (abs < enc->krc || sec->may_block);
}

/* Smallest absolute index that an unacknowledged section, this one included, references. */
static uint64_t oldest_reference(const struct qpack_encoder *enc, const struct section *sec)
{
    uint64_t min = sec->min_ref;
    for (size_t i = 0; i < enc->nsections; i++)
        if (enc->sections[i].min_ref < min)
            min = enc->sections[i].min_ref;
    return min;
}

/* Whether an entry of size n fits, evicting only evictable entries (RFC 9204
 * 2.1.1): acknowledged, and referenced by no unacknowledged section. Keeping
 * unacknowledged entries is also what lets the decoder unwrap the Required
 * Insert Count: it is never more than MaxEntries past the inserts it has. */
static int can_insert(const struct qpack_encoder *enc, const struct section *sec, size_t n)
{
    const struct hpack_dyn_table *t = &enc->table;
    uint64_t oldest = oldest_reference(enc, sec), id = t->first_id;
    size_t size = t->size;

    if (enc->krc < oldest)
        oldest = enc->krc;
    if (n > t->max_size)
        return 0;
    for (; size + n > t->max_size; id++) {
        const struct hpack_dyn_entry *e = hpack_dyn_by_id(t, id);
        if (id - 1 >= oldest)
            return 0;
        size -= e->name_len + e->value_len + HPACK_ENTRY_OVERHEAD;
    }
    return 1;
}

/* An entry is draining when the next quarter-table of inserts would evict it:
 * referencing it would hold up those inserts (RFC 9204 2.1.1.1). */
static int is_draining(const struct qpack_encoder *enc, uint64_t id)
{
    const struct hpack_dyn_table *t = &enc->table;
    size_t room = t->max_size - t->size, cum = 0;

    if (room >= t->max_size / 4)
        return 0;
    for (uint64_t i = t->first_id; i <= id; i++) {
        const struct hpack_dyn_entry *e = hpack_dyn_by_id(t, i);
        cum += e->name_len + e->value_len + HPACK_ENTRY_OVERHEAD;
    }
    return cum <= t->max_size / 4 - room;
}

/* Whether a field not in the table is worth inserting. One this section may
 * reference is, when it fits in the free room, takes at most a quarter of the
 * table, or was seen before: a big entry evicts several others, so it first
 * has to show that it repeats. One this section may not reference is a bet
 * (see SPECULATIVE_INSERTS): only a small one seen before, while the decoder
 * keeps up, since a large entry in a small table evicts what the bet was about
 * before it pays. */
static int worth_inserting(struct qpack_encoder *enc, const struct section *sec, const struct hpack_header *h,
                           int token, size_t entry_size)
{
    uint64_t fingerprint = hpack_field_fingerprint(token, h->name, h->name_len, h->value, h->value_len);
    uint64_t *slot = &enc->seen[fingerprint % SEEN_SLOTS];
    int repeats = *slot == fingerprint, small = entry_size <= enc->table.max_size / 4;

    *slot = fingerprint;
    if (sec->may_block)
        return small || repeats || entry_size <= enc->table.max_size - enc->table.size;
    return repeats && small && qpack_encoder_insert_count(enc) - enc->krc < SPECULATIVE_INSERTS;
}

/* Whether the rules let a field with this name into the table at all: when
 * learning, all but counters (their values are nearly always new); else all
 * but the fixed list of volatile fields, or every field with index_volatile. */
static int may_insert(const struct qpack_encoder *enc, int token)
{
    if (enc->learn)
        return !hpack_field_is_counter(token);
    return enc->index_volatile || !hpack_field_is_volatile(token);
}

/* When learning, whether the field's name has earned its inserts (repeat_memory.h);
 * called last, as it counts the insert. Tags the key with the name's record. */
static int learnt_worth_inserting(struct qpack_encoder *enc, struct hpack_index_key *key, const struct hpack_header *h,
                                  int token)
{
    if (!enc->learn)
        return 1;
    key->tag = hpack_repeat_record(&enc->repeats, token, h->name, h->name_len);
    return hpack_repeat_worth_inserting(&enc->repeats, key->tag, token, h->name, h->name_len, h->value, h->value_len);
}

/* ---- Encoder-stream instructions -------------------------------------- */

static uint8_t *stream_end(struct qpack_encoder *enc)
{
    return enc->out.data + enc->out.len;
}

/* Before the first insert, tell the decoder the capacity (RFC 9204 3.2.3). */
static void announce_capacity(struct qpack_encoder *enc)
{
    if (enc->capacity_sent)
        return;
    enc->out.len += hpack_int_encode(stream_end(enc), QPACK_SET_CAPACITY, 5, (uint32_t)enc->table.max_size);
    enc->capacity_sent = 1;
}

/* Insert (name, value) naming the static entry static_name (>= 0), the dynamic
 * entry name_id (> 0) or a literal name; returns the new entry's absolute index. */
static uint64_t insert(struct qpack_encoder *enc, const struct hpack_header *h, int static_name, uint64_t name_id,
                       const struct hpack_index_key *key)
{
    uint64_t inserts = qpack_encoder_insert_count(enc);
    uint8_t *p;

    announce_capacity(enc);
    p = stream_end(enc);
    if (static_name >= 0)
        p += hpack_int_encode(p, QPACK_INSERT_NAME_REF | QPACK_INSERT_STATIC, 6, (uint32_t)static_name);
    else if (name_id)
        p += hpack_int_encode(p, QPACK_INSERT_NAME_REF, 6, (uint32_t)(inserts - name_id));
    else
        p += hpack_string_encode(p, QPACK_INSERT_LITERAL_NAME, 5, h->name, h->name_len, enc->huffman);
    p += hpack_string_encode(p, 0, 7, h->value, h->value_len, enc->huffman);
    enc->out.len = (size_t)(p - enc->out.data);
    /* A dynamic name may come from an entry this insert evicts; the table copes. */
    hpack_dyn_insert(&enc->table, h->name, h->name_len, h->value, h->value_len);
    hpack_index_add(&enc->index, &enc->table, key);
    return inserts;
}

static uint64_t duplicate(struct qpack_encoder *enc, uint64_t id, const struct hpack_index_key *key)
{
    uint64_t inserts = qpack_encoder_insert_count(enc);
    const struct hpack_dyn_entry *e = hpack_dyn_by_id(&enc->table, id);
    size_t name_len = e->name_len, value_len = e->value_len;
    uint8_t *copy = enc->dup_copy;

    /* The insert may evict the entry it copies and reuse its bytes. */
    memcpy(copy, hpack_dyn_name(&enc->table, e), name_len + value_len);
    enc->out.len += hpack_int_encode(stream_end(enc), QPACK_DUPLICATE, 5, (uint32_t)(inserts - id));
    hpack_dyn_insert(&enc->table, copy, name_len, copy + name_len, value_len);
    hpack_index_add(&enc->index, &enc->table, key);
    return inserts;
}

/* ---- Field lines ------------------------------------------------------ */

static uint8_t *write_indexed(struct section *sec, uint8_t *p, uint64_t abs)
{
    note_ref(sec, abs);
    if (abs < sec->base)
        return p + hpack_int_encode(p, QPACK_FL_INDEXED, 6, (uint32_t)(sec->base - 1 - abs));
    return p + hpack_int_encode(p, QPACK_FL_POST_BASE, 4, (uint32_t)(abs - sec->base));
}

/* A literal naming the static entry static_name (>= 0), the dynamic entry at
 * absolute index name_abs (when has_name_abs) or a literal name. */
static uint8_t *write_literal(const struct qpack_encoder *enc, struct section *sec, uint8_t *p,
                              const struct hpack_header *h, int never, int static_name, int has_name_abs,
                              uint64_t name_abs)
{
    if (static_name >= 0) {
        p += hpack_int_encode(p, QPACK_FL_NAME_REF | QPACK_FL_NAME_REF_STATIC | (never ? QPACK_FL_NAME_REF_N : 0), 4,
                              (uint32_t)static_name);
    } else if (has_name_abs) {
        note_ref(sec, name_abs);
        if (name_abs < sec->base)
            p += hpack_int_encode(p, QPACK_FL_NAME_REF | (never ? QPACK_FL_NAME_REF_N : 0), 4,
                                  (uint32_t)(sec->base - 1 - name_abs));
        else
            p += hpack_int_encode(p, QPACK_FL_POST_BASE_NAME | (never ? QPACK_FL_POST_BASE_NAME_N : 0), 3,
                                  (uint32_t)(name_abs - sec->base));
    } else {
        p += hpack_string_encode(p, QPACK_FL_LITERAL_NAME | (never ? QPACK_FL_LITERAL_NAME_N : 0), 3, h->name,
                                 h->name_len, enc->huffman);
    }
    return p + hpack_string_encode(p, 0, 7, h->value, h->value_len, enc->huffman);
}

/* One field: reference, insert-and-reference, or literal (the strategy in qpack.h). */
static uint8_t *encode_field(struct qpack_encoder *enc, struct section *sec, uint8_t *p,
                             const struct hpack_header *field)
{
    static const uint8_t empty[1];
    struct hpack_header h = *field;
    struct hpack_index_key key;
    int htoken, qtoken, never, static_name = -1;
    uint64_t id = 0, name_id = 0;
    size_t entry_size = h.name_len + h.value_len + HPACK_ENTRY_OVERHEAD;

    if (!h.name_len)
        h.name = empty;
    if (!h.value_len)
        h.value = empty;
    htoken = hpack_static_token(h.name, h.name_len);
    qtoken = qpack_static_token(h.name, h.name_len);
    never = hpack_field_never_indexed(&h, htoken, enc->index_short_cookies);
    if (qtoken >= 0) {
        int exact = never ? -1 : qpack_static_find_value(qtoken, h.value, h.value_len);
        if (exact >= 0)
            return p + hpack_int_encode(p, QPACK_FL_INDEXED | QPACK_FL_STATIC, 6, (uint32_t)exact);
        static_name = (int)qpack_static_name_index(qtoken);
    }
    if (enc->table.max_size == 0)
        return write_literal(enc, sec, p, &h, never, static_name, 0, 0);

    key.token = htoken;
    key.tag = 0; /* the name's record in enc->repeats, when learning */
    hpack_index_hash(&enc->index, &key, h.name, h.name_len, h.value, h.value_len);
    if (!never)
        id = hpack_index_find_pair(&enc->index, &enc->table, &key, h.name, h.name_len, h.value, h.value_len);
    if (id && enc->learn) {
        key.tag = hpack_index_tag(&enc->index, &enc->table, id);
        hpack_repeat_hit(&enc->repeats, key.tag);
    }
    if (id && may_reference(enc, sec, id - 1)) {
        if (sec->may_block && is_draining(enc, id) && can_insert(enc, sec, entry_size))
            return write_indexed(sec, p, duplicate(enc, id, &key));
        return write_indexed(sec, p, id - 1);
    }
    if (static_name < 0 && htoken < 0)
        name_id = hpack_index_find_name(&enc->index, &enc->table, &key, h.name, h.name_len);
    if (!id && !never && may_insert(enc, htoken) && worth_inserting(enc, sec, &h, htoken, entry_size) &&
        can_insert(enc, sec, entry_size) && learnt_worth_inserting(enc, &key, &h, htoken)) {
        uint64_t abs = insert(enc, &h, static_name, name_id, &key);
        if (sec->may_block)
            return write_indexed(sec, p, abs);
        /* The insert may have evicted the entry whose name it used. */
        if (name_id && !hpack_dyn_is_live(&enc->table, name_id))
            name_id = 0;
    }
    if (name_id && !may_reference(enc, sec, name_id - 1))
        name_id = 0;
    return write_literal(enc, sec, p, &h, never, static_name, name_id != 0, name_id - 1);
}

static int fail(struct qpack_encoder *enc, int err, const char *reason)
{
    enc->reason = reason;
    if (err == QPACK_ERR_DECODER_STREAM)
        enc->poisoned = 1;
    return err;
}

/* Write the section prefix (RFC 9204 4.5.1) in front of lines..end, moving them up. */
static size_t write_prefix(const struct qpack_encoder *enc, const struct section *sec, uint8_t *dst,
                           const uint8_t *lines, size_t len)
{
    uint8_t prefix[PREFIX_MAX];
    size_t n = hpack_int_encode(prefix, 0, 8,
                                qpack_encode_ric(sec->ric, qpack_max_entries(enc->s.max_table_capacity)));

    if (sec->ric == 0 || sec->base >= sec->ric)
        n += hpack_int_encode(prefix + n, 0x00, 7, sec->ric ? (uint32_t)(sec->base - sec->ric) : 0);
    else
        n += hpack_int_encode(prefix + n, 0x80, 7, (uint32_t)(sec->ric - sec->base - 1));
    memmove(dst + n, lines, len);
    memcpy(dst, prefix, n);
    return n + len;
}

ssize_t qpack_encoder_encode(struct qpack_encoder *enc, uint64_t stream_id, const struct hpack_header *fields,
                             size_t count, uint8_t *dst, size_t cap)
{
    struct section sec;
    size_t bound;
    uint8_t *p;

    if (!enc || (!fields && count) || !dst || stream_id > QPACK_MAX_STREAM_ID)
        return QPACK_ERR_INVALID_ARGUMENT;
    if (enc->poisoned)
        return QPACK_ERR_POISONED;
    bound = qpack_encoder_bound(enc, fields, count);
    if (cap < bound)
        return QPACK_ERR_BUFFER_TOO_SMALL;
    /* Everything that can fail is reserved first: an insert or a duplicate
     * per field plus the capacity announcement. */
    if (qpack_buf_reserve(&enc->out, bound + MAX_INT_BYTES) != QPACK_OK)
        return fail(enc, QPACK_ERR_NOMEM, "out of memory");
    if (enc->nsections == enc->sections_cap) {
        size_t n = enc->sections_cap ? 2 * enc->sections_cap : 8;
        struct outstanding *s = realloc(enc->sections, n * sizeof *s);
        if (!s)
            return fail(enc, QPACK_ERR_NOMEM, "out of memory");
        enc->sections = s;
        enc->sections_cap = n;
    }
    sec.stream_id = stream_id;
    sec.base = qpack_encoder_insert_count(enc);
    sec.ric = 0;
    sec.min_ref = UINT64_MAX;
    sec.may_block = stream_blocked(enc, enc->nsections, stream_id) ||
                    qpack_encoder_blocked_streams(enc) < enc->s.max_blocked_streams;
    p = dst + PREFIX_MAX;
    for (size_t i = 0; i < count; i++)
        p = encode_field(enc, &sec, p, &fields[i]);
    if (sec.ric) {
        struct outstanding *o = &enc->sections[enc->nsections++];
        o->stream_id = stream_id;
        o->ric = sec.ric;
        o->min_ref = sec.min_ref;
    }
    return (ssize_t)write_prefix(enc, &sec, dst, dst + PREFIX_MAX, (size_t)(p - dst - PREFIX_MAX));
}

/* ---- Decoder stream --------------------------------------------------- */

static void drop_section(struct qpack_encoder *enc, size_t i)
{
    memmove(&enc->sections[i], &enc->sections[i + 1], (enc->nsections - i - 1) * sizeof enc->sections[0]);
    enc->nsections--;
}

static int acknowledge(struct qpack_encoder *enc, uint64_t stream_id)
{
    for (size_t i = 0; i < enc->nsections; i++) {
        if (enc->sections[i].stream_id == stream_id) {
            if (enc->sections[i].ric > enc->krc)
                enc->krc = enc->sections[i].ric;
            drop_section(enc, i);
            return QPACK_OK;
        }
    }
    return fail(enc, QPACK_ERR_DECODER_STREAM, "Section Acknowledgment for a stream with no outstanding section");
}

/* Apply the decoder instruction at *p (a qpack_apply_fn). */
static int apply_instruction(void *state, const uint8_t **p, const uint8_t *end)
{
    struct qpack_encoder *enc = state;
    uint8_t b = **p;
    uint32_t v;
    int rc = hpack_int_decode(p, end, b & QPACK_SECTION_ACK ? 7 : 6, &v);

    if (rc == HPACK_ERR_TRUNCATED)
        return rc;
    if (rc != HPACK_OK)
        return fail(enc, QPACK_ERR_DECODER_STREAM, hpack_error_description(rc));
    if (b & QPACK_SECTION_ACK)
        return acknowledge(enc, v);
    if (b & QPACK_STREAM_CANCEL) {
        for (size_t i = enc->nsections; i-- > 0;)
            if (enc->sections[i].stream_id == v)
                drop_section(enc, i);
        return QPACK_OK;
    }
    if (v == 0 || v > qpack_encoder_insert_count(enc) - enc->krc)
        return fail(enc, QPACK_ERR_DECODER_STREAM, "Insert Count Increment of 0 or past the inserts sent");
    enc->krc += v;
    return QPACK_OK;
}

int qpack_encoder_feed_decoder(struct qpack_encoder *enc, const uint8_t *src, size_t len)
{
    int rc;

    if (!enc || (!src && len))
        return QPACK_ERR_INVALID_ARGUMENT;
    if (enc->poisoned)
        return QPACK_ERR_POISONED;
    rc = qpack_buf_feed(&enc->partial, src, len, apply_instruction, enc);
    if (rc == QPACK_ERR_NOMEM) {
        enc->poisoned = 1;
        return fail(enc, rc, "out of memory");
    }
    return rc;
}
