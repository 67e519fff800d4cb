// JS errors and argument checks for the binding.
#include "js_errors.h"

#include "hpack.h"
#include "qpack.h"

namespace {

// error is empty, or setting a property fails, only when the environment is
// going away (or an exception is already pending): then there is nothing to throw.
bool SetCode(const Napi::Error &error, const char *code)
{
    return !error.IsEmpty() && error.Set("code", code).IsJust();
}

void ThrowWithCode(const Napi::Error &error, const char *code)
{
    if (SetCode(error, code))
        error.ThrowAsJavaScriptException();
}

const char *InvalidArgumentCode(Codec codec)
{
    if (codec == Codec::kBrotli)
        return "ERR_BROTLI_INVALID_ARGUMENT";
    return codec == Codec::kHpack ? hpack_strerror(HPACK_ERR_INVALID_ARGUMENT)
                                  : qpack_strerror(QPACK_ERR_INVALID_ARGUMENT);
}

} // namespace

bool GetTypedArray(Napi::Value value, napi_typedarray_type want, void **data, size_t *count)
{
    napi_typedarray_type type;
    // Fails with napi_invalid_arg, throwing nothing, when value is not a typed array.
    return napi_get_typedarray_info(value.Env(), value, &type, count, data, nullptr, nullptr) == napi_ok && type == want;
}

void ThrowHpackError(Napi::Env env, int err, const char *what)
{
    ThrowWithCode(Napi::Error::New(env, std::string(what) + ": " + hpack_error_description(err)), hpack_strerror(err));
}

void ThrowQpackError(Napi::Env env, int err, const char *what, const char *reason)
{
    Napi::Error error = Napi::Error::New(env, std::string(what) + ": " + reason);
    if (!SetCode(error, qpack_strerror(err)))
        return;
    unsigned h3_code = qpack_h3_error_code(err);
    if (h3_code && !error.Set("h3Code", (double)h3_code).IsJust())
        return;
    error.ThrowAsJavaScriptException();
}

void ThrowOutOfMemory(Napi::Env env, Codec codec, const char *what)
{
    if (codec == Codec::kHpack)
        ThrowHpackError(env, HPACK_ERR_NOMEM, what);
    else
        ThrowQpackError(env, QPACK_ERR_NOMEM, what, "out of memory");
}

void ThrowTypeError(Napi::Env env, const std::string &message, Codec codec)
{
    ThrowWithCode(Napi::TypeError::New(env, message), InvalidArgumentCode(codec));
}

void ThrowRangeError(Napi::Env env, const std::string &message, Codec codec)
{
    ThrowWithCode(Napi::RangeError::New(env, message), InvalidArgumentCode(codec));
}

bool GetBytes(Napi::Value value, const char *what, const uint8_t **data, size_t *len, Codec codec)
{
    void *p;
    if (!GetTypedArray(value, napi_uint8_array, &p, len)) {
        ThrowTypeError(value.Env(), std::string(what) + " must be a Buffer or Uint8Array", codec);
        return false;
    }
    *data = static_cast<const uint8_t *>(p);
    return true;
}

bool GetBytesIfAny(Napi::Value value, const uint8_t **data, size_t *len)
{
    static const uint8_t none[1] = { 0 };
    void *p;
    if (!GetTypedArray(value, napi_uint8_array, &p, len))
        return false;
    // An empty array may have no memory at all; callers do arithmetic on the pointer.
    *data = p ? static_cast<const uint8_t *>(p) : none;
    return true;
}

bool GetRoom(Napi::Value array, Napi::Value offset, uint8_t **data, size_t *room, Codec codec)
{
    const uint8_t *base;
    size_t len;
    uint32_t start;
    if (!GetBytes(array, "output", &base, &len, codec) ||
        !GetUint32(offset, "output offset must be an integer", &start, codec))
        return false;
    if (start > len) {
        ThrowRangeError(array.Env(), "output offset is past the end of the output", codec);
        return false;
    }
    *data = const_cast<uint8_t *>(base) + start;
    *room = len - start;
    return true;
}

bool GetInt32s(Napi::Value value, const char *what, int32_t **data, size_t *count, Codec codec)
{
    void *p;
    if (!GetTypedArray(value, napi_int32_array, &p, count)) {
        ThrowTypeError(value.Env(), std::string(what) + " must be an Int32Array", codec);
        return false;
    }
    *data = static_cast<int32_t *>(p);
    return true;
}

bool GetUint32(Napi::Value value, const char *message, uint32_t *out, Codec codec)
{
    double d;
    if (napi_get_value_double(value.Env(), value, &d) != napi_ok) {
        ThrowTypeError(value.Env(), message, codec);
        return false;
    }
    if (!(d >= 0 && d <= 4294967295.0) || d != (double)(uint32_t)d) {
        ThrowRangeError(value.Env(), message, codec);
        return false;
    }
    *out = (uint32_t)d;
    return true;
}

const std::string kTableSizeMessage = "tableSize must be an integer from 0 to " + std::to_string(HPACK_MAX_TABLE_SIZE);

void ThrowResizeError(Napi::Env env, int rc, const char *what)
{
    if (rc == HPACK_ERR_INVALID_ARGUMENT)
        ThrowRangeError(env, kTableSizeMessage);
    else if (rc != HPACK_OK)
        ThrowHpackError(env, rc, what);
}
