// The static table as JS strings, made once per addon instance (so per worker thread).
#include "static_table_wrap.h"

// An internal header of the C core, without extern "C" of its own.
extern "C" {
#include "static_table.h"
}

Napi::Array InitStaticTable(Napi::Env env)
{
    Napi::Array table = Napi::Array::New(env, 2 * HPACK_STATIC_TABLE_LEN + 1);
    table.Set(0u, env.Undefined());
    for (uint32_t i = 1; i <= HPACK_STATIC_TABLE_LEN; i++) {
        const struct hpack_static_entry &e = hpack_static_table[i - 1];
        table.Set(2 * i - 1, Napi::String::New(env, e.name, e.name_len));
        table.Set(2 * i, Napi::String::New(env, e.value, e.value_len));
    }
    return table;
}
