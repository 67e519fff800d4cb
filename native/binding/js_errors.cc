// JS errors and argument checks for the binding.
#include "js_errors.h"

#include <string>

#include "hpack.h"

namespace {

void ThrowWithCode(Napi::Error error, const char *code)
{
    error.Set("code", Napi::String::New(error.Env(), code));
    error.ThrowAsJavaScriptException();
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

bool GetBytes(const Napi::Value &value, const char *what, const uint8_t **data, size_t *len)
{
    if (!value.IsTypedArray() || value.As<Napi::TypedArray>().TypedArrayType() != napi_uint8_array) {
        ThrowTypeError(value.Env(), (std::string(what) + " must be a Buffer or Uint8Array").c_str());
        return false;
    }
    Napi::Uint8Array bytes = value.As<Napi::Uint8Array>();
    *data = bytes.Data();
    *len = bytes.ByteLength();
    return true;
}

bool GetUint32(const Napi::Value &v, const char *message, uint32_t *out)
{
    if (!v.IsNumber()) {
        ThrowTypeError(v.Env(), message);
        return false;
    }
    double d = v.As<Napi::Number>().DoubleValue();
    if (!(d >= 0 && d <= 4294967295.0) || d != (double)(uint32_t)d) {
        ThrowRangeError(v.Env(), message);
        return false;
    }
    *out = (uint32_t)d;
    return true;
}
