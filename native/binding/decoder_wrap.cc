// Decoder: new Decoder(tableSize, maxHeaderListSize, maxStringLength);
// decode(block) -> [[name, value], ...] in one native call; setTableSize(n).
#include "decoder_wrap.h"

#include "hpack.h"
#include "js_errors.h"

namespace {

class Decoder : public Napi::ObjectWrap<Decoder> {
public:
    explicit Decoder(const Napi::CallbackInfo &info);
    ~Decoder() override { hpack_decoder_free(dec_); }

    Napi::Value Decode(const Napi::CallbackInfo &info);
    Napi::Value SetTableSize(const Napi::CallbackInfo &info);

private:
    struct hpack_decoder *dec_ = nullptr;
};

struct DecodeContext {
    napi_env env;
    napi_value list;
    uint32_t count;
};

napi_value Latin1(napi_env env, const uint8_t *s, size_t len)
{
    napi_value v;
    napi_create_string_latin1(env, reinterpret_cast<const char *>(s), len, &v);
    return v;
}

int AppendField(void *ctx, const struct hpack_header *h)
{
    DecodeContext *c = static_cast<DecodeContext *>(ctx);
    napi_value pair;
    if (napi_create_array_with_length(c->env, 2, &pair) != napi_ok)
        return HPACK_ERR_NOMEM;
    napi_set_element(c->env, pair, 0, Latin1(c->env, h->name, h->name_len));
    napi_set_element(c->env, pair, 1, Latin1(c->env, h->value, h->value_len));
    napi_set_element(c->env, c->list, c->count++, pair);
    return 0;
}

Decoder::Decoder(const Napi::CallbackInfo &info) : Napi::ObjectWrap<Decoder>(info)
{
    struct hpack_decoder_limits limits;
    if (!GetUint32(info[0], "tableSize must be an integer from 0 to 16777216", &limits.max_table_size) ||
        !GetUint32(info[1], "maxHeaderListSize must be a 32-bit unsigned integer", &limits.max_header_list_size) ||
        !GetUint32(info[2], "maxStringLength must be a 32-bit unsigned integer", &limits.max_string_length))
        return;
    if (limits.max_table_size > (1u << 24)) {
        ThrowRangeError(info.Env(), "tableSize must be an integer from 0 to 16777216");
        return;
    }
    dec_ = hpack_decoder_new(&limits);
    if (!dec_)
        ThrowHpackError(info.Env(), HPACK_ERR_NOMEM, "cannot create decoder");
}

Napi::Value Decoder::Decode(const Napi::CallbackInfo &info)
{
    napi_env env = info.Env();
    const uint8_t *src;
    size_t len;
    if (!GetBytes(info[0], "block", &src, &len))
        return info.Env().Undefined();
    DecodeContext ctx = { env, nullptr, 0 };
    napi_create_array(env, &ctx.list);
    ssize_t rc = hpack_decoder_decode(dec_, src, len, AppendField, &ctx);
    if (rc < 0) {
        ThrowHpackError(info.Env(), (int)rc, "HPACK decoding failed");
        return info.Env().Undefined();
    }
    return Napi::Value(env, ctx.list);
}

Napi::Value Decoder::SetTableSize(const Napi::CallbackInfo &info)
{
    uint32_t size;
    if (!GetUint32(info[0], "tableSize must be an integer from 0 to 16777216", &size))
        return info.Env().Undefined();
    int rc = hpack_decoder_set_max_table_size(dec_, size);
    if (rc == HPACK_ERR_INVALID_ARGUMENT)
        ThrowRangeError(info.Env(), "tableSize must be an integer from 0 to 16777216");
    else if (rc != HPACK_OK)
        ThrowHpackError(info.Env(), rc, "cannot resize the decoder's table");
    return info.Env().Undefined();
}

} // namespace

Napi::Function InitDecoder(Napi::Env env)
{
    return Decoder::DefineClass(env, "Decoder",
                                { Decoder::InstanceMethod("decode", &Decoder::Decode),
                                  Decoder::InstanceMethod("setTableSize", &Decoder::SetTableSize) });
}
