/* Which fields an encoder keeps out of its dynamic table: one set of rules for
 * the HPACK and the QPACK encoder. Tokens are HPACK static-table tokens
 * (hpack_static_token), which name every field these rules single out. */
#ifndef HPACK_FIELD_RULES_H
#define HPACK_FIELD_RULES_H

#include "hpack.h"
#include "static_table.h"

/* Cookie crumbs this short could be recovered by probing the compression ratio
 * (CRIME-style), so they are never indexed; nghttp2 draws the same line. */
#define COOKIE_NEVER_INDEX_BELOW 20

/* Sent as never-indexed literals: flagged by the caller, credentials, and short
 * cookies unless index_short_cookies (the CFI'17 paper's strategies have no
 * cookie rule). */
static inline int hpack_field_never_indexed(const struct hpack_header *h, int token, int index_short_cookies)
{
    return (h->flags & HPACK_HEADER_NEVER_INDEXED) || token == HPACK_TOKEN_AUTHORIZATION ||
           (token == HPACK_TOKEN_COOKIE && h->value_len < COOKIE_NEVER_INDEX_BELOW && !index_short_cookies);
}

/* Numbers that change with nearly every message (a length, an age): a few
 * values repeat often enough to look worth indexing to an encoder that learns
 * from hits (repeat_memory.h), but most are new and would only evict entries
 * that get reused. */
static inline int hpack_field_is_counter(int token)
{
    return token == HPACK_TOKEN_CONTENT_LENGTH || token == HPACK_TOKEN_AGE;
}

/* Fields whose values are almost always new (a path, a length, a validator, a
 * cookie being set, an age): the fixed rule for encoders that do not learn.
 * The paper's reference encoder (haskell-http2) skips all but age; age, which
 * nghttp2 also skips, saves another 0.1% on hpack-test-case. */
static inline int hpack_field_is_volatile(int token)
{
    switch (token) {
    case HPACK_TOKEN_PATH:
    case HPACK_TOKEN_CONTENT_LOCATION:
    case HPACK_TOKEN_ETAG:
    case HPACK_TOKEN_SET_COOKIE:
        return 1;
    default:
        return hpack_field_is_counter(token);
    }
}

#endif
