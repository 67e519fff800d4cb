// Latin1 string transfer for header names and values.
#include "js_strings.h"

#include "js_errors.h"

bool AppendLatin1(napi_env env, napi_value value, std::string *out)
{
    size_t len = 0, copied = 0;
    if (napi_get_value_string_latin1(env, value, nullptr, 0, &len) != napi_ok) {
        ThrowTypeError(Napi::Env(env), "header names and values must be strings");
        return false;
    }
    size_t start = out->size();
    out->resize(start + len + 1); // napi writes a terminating NUL
    napi_get_value_string_latin1(env, value, &(*out)[start], len + 1, &copied);
    out->resize(start + copied);
    return true;
}
