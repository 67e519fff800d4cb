// JS errors and argument checks for the binding.
#include "js_errors.h"

#include "hpack.h"

namespace {

// error is empty, or setting its code fails, only when the environment is going
// away (or an exception is already pending): then there is nothing to throw.
void ThrowWithCode(const Napi::Error &error, const char *code)
{
    if (!error.IsEmpty() && error.Set("code", code).IsJust())
        error.ThrowAsJavaScriptException();
}

bool GetTypedArray(Napi::Value value, napi_typedarray_type want, void **data, size_t *count)
{
    napi_typedarray_type type;
    // Fails with napi_invalid_arg, throwing nothing, when value is not a typed array.
    return napi_get_typedarray_info(value.Env(), value, &type, count, data, nullptr, nullptr) == napi_ok && type == want;
}

} // namespace

void ThrowHpackError(Napi::Env env, int err, const char *what)
{
    ThrowWithCode(Napi::Error::New(env, std::string(what) + ": " + hpack_error_description(err)), hpack_strerror(err));
}

void ThrowTypeError(Napi::Env env, const std::string &message)
{
    ThrowWithCode(Napi::TypeError::New(env, message), hpack_strerror(HPACK_ERR_INVALID_ARGUMENT));
}

void ThrowRangeError(Napi::Env env, const std::string &message)
{
    ThrowWithCode(Napi::RangeError::New(env, message), hpack_strerror(HPACK_ERR_INVALID_ARGUMENT));
}

bool GetBytes(Napi::Value value, const char *what, const uint8_t **data, size_t *len)
{
    void *p;
    if (!GetTypedArray(value, napi_uint8_array, &p, len)) {
        ThrowTypeError(value.Env(), std::string(what) + " must be a Buffer or Uint8Array");
        return false;
    }
    *data = static_cast<const uint8_t *>(p);
    return true;
}

bool GetRoom(Napi::Value array, Napi::Value offset, uint8_t **data, size_t *room)
{
    const uint8_t *base;
    size_t len;
    uint32_t start;
    if (!GetBytes(array, "output", &base, &len) || !GetUint32(offset, "output offset must be an integer", &start))
        return false;
    if (start > len) {
        ThrowRangeError(array.Env(), "output offset is past the end of the output");
        return false;
    }
    *data = const_cast<uint8_t *>(base) + start;
    *room = len - start;
    return true;
}

bool GetInt32s(Napi::Value value, const char *what, int32_t **data, size_t *count)
{
    void *p;
    if (!GetTypedArray(value, napi_int32_array, &p, count)) {
        ThrowTypeError(value.Env(), std::string(what) + " must be an Int32Array");
        return false;
    }
    *data = static_cast<int32_t *>(p);
    return true;
}

bool GetUint32(Napi::Value value, const char *message, uint32_t *out)
{
    double d;
    if (napi_get_value_double(value.Env(), value, &d) != napi_ok) {
        ThrowTypeError(value.Env(), message);
        return false;
    }
    if (!(d >= 0 && d <= 4294967295.0) || d != (double)(uint32_t)d) {
        ThrowRangeError(value.Env(), message);
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
