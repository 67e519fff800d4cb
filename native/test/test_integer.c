/* Prefix integers (RFC 7541 5.1): the C.1 examples, limits, overflow and truncation. */
#include "integer.h"
#include "test.h"

static int decode(const uint8_t *buf, size_t len, unsigned prefix, uint32_t *v, size_t *used)
{
    const uint8_t *p = buf;
    int rc = hpack_int_decode(&p, buf + len, prefix, v);
    *used = (size_t)(p - buf);
    return rc;
}

TEST(integer_rfc_c1_examples)
{
    uint8_t buf[8];
    uint32_t v;
    size_t used;

    CHECK_EQ_INT(hpack_int_encode(buf, 0, 5, 10), 1); /* C.1.1 */
    CHECK_EQ_INT(buf[0], 0x0a);
    CHECK_EQ_INT(hpack_int_encode(buf, 0, 5, 1337), 3); /* C.1.2 */
    CHECK_MEM(buf, "\x1f\x9a\x0a", 3);
    CHECK_EQ_INT(decode(buf, 3, 5, &v, &used), HPACK_OK);
    CHECK_EQ_INT(v, 1337);
    CHECK_EQ_INT(used, 3);
    CHECK_EQ_INT(hpack_int_encode(buf, 0, 8, 42), 1); /* C.1.3 */
    CHECK_EQ_INT(buf[0], 42);
    /* Representation bits above the prefix are kept on write, ignored on read. */
    CHECK_EQ_INT(hpack_int_encode(buf, 0xe0, 5, 10), 1);
    CHECK_EQ_INT(buf[0], 0xea);
    CHECK_EQ_INT(decode(buf, 1, 5, &v, &used), HPACK_OK);
    CHECK_EQ_INT(v, 10);
}

TEST(integer_round_trip_every_prefix)
{
    static const uint32_t values[] = { 0, 1, 30, 31, 32, 126, 127, 128, 254, 255, 256, 16383, 16510, 16511,
                                       1u << 21, (1u << 28) - 1, 1u << 28, UINT32_MAX - 1, UINT32_MAX };
    for (unsigned prefix = 1; prefix <= 8; prefix++) {
        for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) {
            uint8_t buf[8];
            uint32_t v = 0;
            size_t used, n = hpack_int_encode(buf, 0, prefix, values[i]);
            CHECK_EQ_INT(n, hpack_int_size(values[i], prefix));
            CHECK_EQ_INT(decode(buf, n, prefix, &v, &used), HPACK_OK);
            CHECK_EQ_INT(v, values[i]);
            CHECK_EQ_INT(used, n);
            /* Every proper prefix of the encoding is a truncation. */
            for (size_t cut = 0; cut < n; cut++)
                CHECK_EQ_INT(decode(buf, cut, prefix, &v, &used), HPACK_ERR_TRUNCATED);
        }
    }
}

TEST(integer_overflow_and_overlong)
{
    uint32_t v;
    size_t used;
    /* 2^32 with a 5-bit prefix: 31 + 0xffffffe1 */
    CHECK_EQ_INT(decode((const uint8_t *)"\x1f\xe1\xff\xff\xff\x0f", 6, 5, &v, &used), HPACK_ERR_INTEGER);
    CHECK_EQ_INT(decode((const uint8_t *)"\x1f\xe0\xff\xff\xff\x0f", 6, 5, &v, &used), HPACK_OK);
    CHECK_EQ_INT(v, UINT32_MAX);
    /* Six continuation bytes are never needed for 32 bits, even when they add zeros. */
    CHECK_EQ_INT(decode((const uint8_t *)"\x1f\x80\x80\x80\x80\x80\x00", 7, 5, &v, &used), HPACK_ERR_INTEGER);
    CHECK_EQ_INT(decode((const uint8_t *)"\xff\xff\xff\xff\xff\xff\xff\xff", 8, 8, &v, &used), HPACK_ERR_INTEGER);
    CHECK_EQ_INT(decode((const uint8_t *)"", 0, 5, &v, &used), HPACK_ERR_TRUNCATED);
}
