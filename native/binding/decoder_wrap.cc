// Decoder: new Decoder(tableSize, maxHeaderListSize, maxStringLength);
// decode(block, refs) -> text; setTableSize(n).
//
// A JS string made here costs an N-API call and a V8 allocation each, so a
// block comes back as one latin1 string holding the bytes of its strings, and
// refs (an Int32Array from index.js, room for 1 + 2 per header) describes the
// fields: refs[0] is the count, then per field a name ref and a value ref. A
// ref >= 0 is the end offset of the string in text (it starts where the
// previous text string ended); ~ref is a static table index whose name (for a
// name ref) or value (for a value ref) the string equals, which index.js keeps
// as JS strings made once, so common names and values cost no bytes at all.
#include "decoder_wrap.h"

#include <vector>

#include "hpack.h"
#include "js_errors.h"
// An internal header of the C core, without extern "C" of its own.
extern "C" {
#include "static_table.h"
}

namespace {

class Decoder : public Napi::ObjectWrap<Decoder> {
public:
    explicit Decoder(const Napi::CallbackInfo &info);
    ~Decoder() override { hpack_decoder_free(dec_); }

    Napi::Value Decode(const Napi::CallbackInfo &info);
    Napi::Value SetTableSize(const Napi::CallbackInfo &info);

private:
    struct hpack_decoder *dec_ = nullptr;
    std::vector<char> text_; // reused across blocks
};

struct DecodeContext {
    std::vector<char> *text;
    int32_t *refs;
    size_t refs_len;
    uint32_t count;
};

int32_t TextRef(std::vector<char> *text, const uint8_t *s, size_t len)
{
    text->insert(text->end(), s, s + len);
    return (int32_t)text->size();
}

int AppendField(void *ctx, const struct hpack_header *h)
{
    DecodeContext *c = static_cast<DecodeContext *>(ctx);
    size_t at = 1 + 2 * (size_t)c->count;
    // index.js sizes refs for the most fields the block or the list limit allows.
    if (at + 2 > c->refs_len || c->text->size() + h->name_len + h->value_len > INT32_MAX)
        return HPACK_ERR_BUFFER_TOO_SMALL;
    int token = hpack_static_token(h->name, h->name_len);
    unsigned static_index = token < 0 ? 0 : hpack_static_find_value(token, h->value, h->value_len);
    c->refs[at] = token < 0 ? TextRef(c->text, h->name, h->name_len) : ~(int32_t)hpack_token_ranges[token].first;
    c->refs[at + 1] = static_index ? ~(int32_t)static_index : TextRef(c->text, h->value, h->value_len);
    c->count++;
    return 0;
}

Decoder::Decoder(const Napi::CallbackInfo &info) : Napi::ObjectWrap<Decoder>(info)
{
    napi_env env = info.Env();
    struct hpack_decoder_limits limits;
    if (!GetUint32(env, info[0], kTableSizeMessage, &limits.max_table_size) ||
        !GetUint32(env, info[1], "maxHeaderListSize must be a 32-bit unsigned integer", &limits.max_header_list_size) ||
        !GetUint32(env, info[2], "maxStringLength must be a 32-bit unsigned integer", &limits.max_string_length))
        return;
    if (limits.max_table_size > (1u << 24)) {
        ThrowRangeError(env, kTableSizeMessage);
        return;
    }
    dec_ = hpack_decoder_new(&limits);
    if (!dec_)
        ThrowHpackError(env, HPACK_ERR_NOMEM, "cannot create decoder");
}

Napi::Value Decoder::Decode(const Napi::CallbackInfo &info)
{
    napi_env env = info.Env();
    const uint8_t *src;
    size_t len;
    DecodeContext ctx = { &text_, nullptr, 0, 0 };
    if (!GetBytes(env, info[0], "block", &src, &len) || !GetInt32s(env, info[1], "refs", &ctx.refs, &ctx.refs_len))
        return Napi::Value();
    if (ctx.refs_len == 0) {
        ThrowRangeError(env, "refs must have room for the field count");
        return Napi::Value();
    }
    text_.clear();
    ssize_t rc = hpack_decoder_decode(dec_, src, len, AppendField, &ctx);
    if (rc < 0) {
        ThrowHpackError(env, (int)rc, "HPACK decoding failed");
        return Napi::Value();
    }
    ctx.refs[0] = (int32_t)ctx.count;
    napi_value text;
    napi_create_string_latin1(env, text_.data(), text_.size(), &text);
    return Napi::Value(env, text);
}

Napi::Value Decoder::SetTableSize(const Napi::CallbackInfo &info)
{
    napi_env env = info.Env();
    uint32_t size;
    if (GetUint32(env, info[0], kTableSizeMessage, &size))
        ThrowResizeError(env, hpack_decoder_set_max_table_size(dec_, size), "cannot resize the decoder's table");
    return Napi::Value();
}

} // namespace

Napi::Function InitDecoder(Napi::Env env)
{
    return Decoder::DefineClass(env, "Decoder",
                                { Decoder::InstanceMethod("decode", &Decoder::Decode),
                                  Decoder::InstanceMethod("setTableSize", &Decoder::SetTableSize) });
}
