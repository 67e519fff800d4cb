/* The generated static table and its token switch. */
#include "static_table.h"
#include "test.h"

TEST(static_table_tokens_cover_every_name)
{
    for (unsigned i = 1; i <= HPACK_STATIC_TABLE_LEN; i++) {
        const struct hpack_static_entry *e = &hpack_static_table[i - 1];
        int token = hpack_static_token((const uint8_t *)e->name, e->name_len);
        const struct hpack_token_range *r;
        CHECK(token >= 0 && token < HPACK_TOKEN_COUNT);
        if (token < 0)
            continue;
        r = &hpack_token_ranges[token];
        CHECK(i >= r->first && i < (unsigned)r->first + r->count);
        CHECK_EQ_INT(hpack_static_find_value(token, (const uint8_t *)e->value, e->value_len), i);
    }
    CHECK_EQ_INT(hpack_static_table[0].name_len, 10);
    CHECK(strcmp(hpack_static_table[15].value, "gzip, deflate") == 0);
    CHECK(strcmp(hpack_static_table[60].name, "www-authenticate") == 0);
}

TEST(static_table_rejects_other_names)
{
    static const char *others[] = { "", "x", "vie", "cookies", "Cookie", ":pat", "content-typf", "x-forwarded-for",
                                    "accept-encodinG", "www-authenticatf" };
    for (size_t i = 0; i < sizeof others / sizeof others[0]; i++)
        CHECK_EQ_INT(hpack_static_token((const uint8_t *)others[i], strlen(others[i])), -1);
    CHECK_EQ_INT(hpack_static_find_value(HPACK_TOKEN_STATUS, (const uint8_t *)"404", 3), 13);
    CHECK_EQ_INT(hpack_static_find_value(HPACK_TOKEN_STATUS, (const uint8_t *)"403", 3), 0);
}
