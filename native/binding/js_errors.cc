// JS errors and argument checks for the binding. The checks run on every call,
// so they use one raw N-API call per argument rather than node-addon-api's
// several (IsTypedArray, TypedArrayType, Data and ByteLength each ask again).
#include "js_errors.h"

#include <string>

#include "hpack.h"

namespace {

void ThrowWithCode(Napi::Error error, const char *code)
{
    error.Set("code", Napi::String::New(error.Env(), code));
    error.ThrowAsJavaScriptException();
}

bool GetTypedArray(napi_env env, napi_value value, napi_typedarray_type want, void **data, size_t *count)
{
    napi_typedarray_type type;
    // Fails with napi_invalid_arg, throwing nothing, when value is not a typed array.
    return napi_get_typedarray_info(env, value, &type, count, data, nullptr, nullptr) == napi_ok && type == want;
}

} // namespace

void ThrowHpackError(Napi::Env env, int err, const char *what)
{
    std::string message = std::string(what) + ": " + hpack_error_description(err);
    ThrowWithCode(Napi::Error::New(env, message), hpack_strerror(err));
}

void ThrowTypeError(Napi::Env env, const char *message)
{
    ThrowWithCode(Napi::TypeError::New(env, message), hpack_strerror(HPACK_ERR_INVALID_ARGUMENT));
}

void ThrowRangeError(Napi::Env env, const char *message)
{
    ThrowWithCode(Napi::RangeError::New(env, message), hpack_strerror(HPACK_ERR_INVALID_ARGUMENT));
}

bool GetBytes(napi_env env, napi_value value, const char *what, const uint8_t **data, size_t *len)
{
    void *p;
    if (!GetTypedArray(env, value, napi_uint8_array, &p, len)) {
        ThrowTypeError(env, (std::string(what) + " must be a Buffer or Uint8Array").c_str());
        return false;
    }
    *data = static_cast<const uint8_t *>(p);
    return true;
}

bool GetRoom(napi_env env, napi_value array, napi_value offset, uint8_t **data, size_t *room)
{
    const uint8_t *base;
    size_t len;
    uint32_t start;
    if (!GetBytes(env, array, "output", &base, &len) || !GetUint32(env, offset, "output offset must be an integer", &start))
        return false;
    if (start > len) {
        ThrowRangeError(env, "output offset is past the end of the output");
        return false;
    }
    *data = const_cast<uint8_t *>(base) + start;
    *room = len - start;
    return true;
}

bool GetInt32s(napi_env env, napi_value value, const char *what, int32_t **data, size_t *count)
{
    void *p;
    if (!GetTypedArray(env, value, napi_int32_array, &p, count)) {
        ThrowTypeError(env, (std::string(what) + " must be an Int32Array").c_str());
        return false;
    }
    *data = static_cast<int32_t *>(p);
    return true;
}

bool GetUint32(napi_env env, napi_value v, const char *message, uint32_t *out)
{
    double d;
    if (napi_get_value_double(env, v, &d) != napi_ok) {
        ThrowTypeError(env, message);
        return false;
    }
    if (!(d >= 0 && d <= 4294967295.0) || d != (double)(uint32_t)d) {
        ThrowRangeError(env, message);
        return false;
    }
    *out = (uint32_t)d;
    return true;
}

const char kTableSizeMessage[] = "tableSize must be an integer from 0 to 16777216";

void ThrowResizeError(Napi::Env env, int rc, const char *what)
{
    if (rc == HPACK_ERR_INVALID_ARGUMENT)
        ThrowRangeError(env, kTableSizeMessage);
    else if (rc != HPACK_OK)
        ThrowHpackError(env, rc, what);
}
