// Header strings cross the boundary as latin1, one byte per character, as in
// Node's http2 module: any byte round-trips and no UTF-8 validation is paid.
#ifndef HPACK_BINDING_JS_STRINGS_H
#define HPACK_BINDING_JS_STRINGS_H

#include <napi.h>

#include <string>

// Append the latin1 bytes of a JS string to out; false (TypeError thrown) if it is not a string.
bool AppendLatin1(napi_env env, napi_value value, std::string *out);

#endif
