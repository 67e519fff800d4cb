// JS errors and argument checks for the binding. The checks run on every call,
// so they use one N-API call per argument.
#include "js_errors.h"

#include "hpack.h"

namespace {

typedef napi_status (*ErrorFactory)(napi_env, napi_value code, napi_value message, napi_value *result);

// Every step can fail only when the environment is going away or an exception
// is already pending; then there is nothing to throw and the caller returns anyway.
void Throw(napi_env env, ErrorFactory create, const char *code, const std::string &message)
{
    napi_value code_value, message_value, error;
    if (napi_create_string_utf8(env, code, NAPI_AUTO_LENGTH, &code_value) == napi_ok &&
        napi_create_string_utf8(env, message.data(), message.size(), &message_value) == napi_ok &&
        create(env, code_value, message_value, &error) == napi_ok)
        napi_throw(env, error);
}

bool GetTypedArray(napi_env env, napi_value value, napi_typedarray_type want, void **data, size_t *count)
{
    napi_typedarray_type type;
    // Fails with napi_invalid_arg, throwing nothing, when value is not a typed array.
    return napi_get_typedarray_info(env, value, &type, count, data, nullptr, nullptr) == napi_ok && type == want;
}

} // namespace

bool Ok(napi_env env, napi_status status)
{
    if (status == napi_ok)
        return true;
    // Read before any other call, which would reset it.
    const napi_extended_error_info *info;
    std::string message = "N-API call failed";
    if (napi_get_last_error_info(env, &info) == napi_ok && info->error_message)
        message += std::string(": ") + info->error_message;
    bool pending;
    if (napi_is_exception_pending(env, &pending) == napi_ok && !pending)
        ThrowTypeError(env, message);
    return false;
}

void ThrowHpackError(napi_env env, int err, const char *what)
{
    Throw(env, napi_create_error, hpack_strerror(err), std::string(what) + ": " + hpack_error_description(err));
}

void ThrowTypeError(napi_env env, const std::string &message)
{
    Throw(env, napi_create_type_error, hpack_strerror(HPACK_ERR_INVALID_ARGUMENT), message);
}

void ThrowRangeError(napi_env env, const std::string &message)
{
    Throw(env, napi_create_range_error, hpack_strerror(HPACK_ERR_INVALID_ARGUMENT), message);
}

bool GetArgs(napi_env env, napi_callback_info info, size_t argc, napi_value *argv, void **self)
{
    napi_value receiver;
    return Ok(env, napi_get_cb_info(env, info, &argc, argv, &receiver, nullptr)) &&
           (!self || Ok(env, napi_unwrap(env, receiver, self)));
}

bool GetNewArgs(napi_env env, napi_callback_info info, size_t argc, napi_value *argv, napi_value *receiver)
{
    napi_value new_target;
    if (!Ok(env, napi_get_cb_info(env, info, &argc, argv, receiver, nullptr)) ||
        !Ok(env, napi_get_new_target(env, info, &new_target)))
        return false;
    if (!new_target)
        ThrowTypeError(env, "a class constructor must be called with new");
    return new_target != nullptr;
}

bool GetBytes(napi_env env, napi_value value, const char *what, const uint8_t **data, size_t *len)
{
    void *p;
    if (!GetTypedArray(env, value, napi_uint8_array, &p, len)) {
        ThrowTypeError(env, std::string(what) + " must be a Buffer or Uint8Array");
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
        ThrowTypeError(env, std::string(what) + " must be an Int32Array");
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

napi_value Number(napi_env env, double n)
{
    napi_value v;
    return Ok(env, napi_create_double(env, n, &v)) ? v : nullptr;
}

const char kTableSizeMessage[] = "tableSize must be an integer from 0 to 16777216";

void ThrowResizeError(napi_env env, int rc, const char *what)
{
    if (rc == HPACK_ERR_INVALID_ARGUMENT)
        ThrowRangeError(env, kTableSizeMessage);
    else if (rc != HPACK_OK)
        ThrowHpackError(env, rc, what);
}
