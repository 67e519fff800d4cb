// The static table as JS strings, made once per addon instance: each
// environment (main thread, worker thread) gets its own, on its exports.
#include "static_table_wrap.h"

#include "js_errors.h"
// An internal header of the C core, without extern "C" of its own.
extern "C" {
#include "static_table.h"
}

namespace {

bool SetString(napi_env env, napi_value table, uint32_t i, const char *s, size_t len)
{
    napi_value str;
    return Ok(env, napi_create_string_latin1(env, s, len, &str)) && Ok(env, napi_set_element(env, table, i, str));
}

} // namespace

bool ExportStaticTable(napi_env env, napi_value exports)
{
    napi_value table;
    if (!Ok(env, napi_create_array_with_length(env, 2 * HPACK_STATIC_TABLE_LEN + 1, &table)))
        return false;
    for (uint32_t i = 1; i <= HPACK_STATIC_TABLE_LEN; i++) {
        const struct hpack_static_entry &e = hpack_static_table[i - 1];
        if (!SetString(env, table, 2 * i - 1, e.name, e.name_len) || !SetString(env, table, 2 * i, e.value, e.value_len))
            return false;
    }
    return Ok(env, napi_set_named_property(env, exports, "staticTable", table));
}
