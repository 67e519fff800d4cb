// The static table as JS strings, made once per addon instance: each
// environment (main thread, worker thread) gets its own, on its exports.
#include "static_table_wrap.h"

#include "export_property.h"
// An internal header of the C core, without extern "C" of its own.
extern "C" {
#include "static_table.h"
}

namespace {

// The table's names and values are ASCII, so their UTF-8 is their latin1.
bool SetString(Napi::Array table, uint32_t i, const char *s, size_t len)
{
    Napi::String str = Napi::String::New(table.Env(), s, len);
    return !str.IsEmpty() && table.Set(i, str).IsJust();
}

} // namespace

bool ExportStaticTable(Napi::Object exports)
{
    Napi::Array table = Napi::Array::New(exports.Env(), 2 * HPACK_STATIC_TABLE_LEN + 1);
    if (table.IsEmpty())
        return false;
    for (uint32_t i = 1; i <= HPACK_STATIC_TABLE_LEN; i++) {
        const struct hpack_static_entry &e = hpack_static_table[i - 1];
        if (!SetString(table, 2 * i - 1, e.name, e.name_len) || !SetString(table, 2 * i, e.value, e.value_len))
            return false;
    }
    return ExportProperty(exports, "staticTable", table);
}
