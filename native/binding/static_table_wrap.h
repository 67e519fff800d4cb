// The static table as JS strings, for index.js to resolve the decoder's static refs.
#ifndef HPACK_BINDING_STATIC_TABLE_WRAP_H
#define HPACK_BINDING_STATIC_TABLE_WRAP_H

#include <napi.h>

// Sets exports.staticTable to [unused, name1, value1, ..., name61, value61]:
// entry i at 2 * i - 1 and 2 * i. False when that failed (see js_errors.h).
bool ExportStaticTable(Napi::Object exports);

#endif
