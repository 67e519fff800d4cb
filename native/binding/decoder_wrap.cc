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

#include <new>
#include <vector>

#include "hpack.h"
#include "class_wrap.h"
#include "js_errors.h"
// An internal header of the C core, without extern "C" of its own.
extern "C" {
#include "static_table.h"
}

namespace {

class Decoder : public CoreWrap<Decoder, struct hpack_decoder, hpack_decoder_free> {
public:
    explicit Decoder(const Napi::CallbackInfo &info);

    Napi::Value Decode(const Napi::CallbackInfo &info);
    Napi::Value SetTableSize(const Napi::CallbackInfo &info);

private:
    // Kept for the next block only while small: one huge list must not hold
    // its size, unseen by V8's GC, for as long as the decoder lives.
    void ReleaseLargeText()
    {
        if (text_.capacity() > kKeptTextCapacity)
            std::vector<char>().swap(text_);
    }

    static constexpr size_t kKeptTextCapacity = 64 * 1024;
    std::vector<char> text_;
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
    if (at + 2 > c->refs_len)
        return HPACK_ERR_BUFFER_TOO_SMALL;
    // Refs are int32 offsets; index.js caps the list limit far below this.
    if (c->text->size() + h->name_len + h->value_len > INT32_MAX)
        return HPACK_ERR_HEADER_LIST_TOO_LARGE;
    int token = hpack_static_token(h->name, h->name_len);
    unsigned static_index = token < 0 ? 0 : hpack_static_find_value(token, h->value, h->value_len);
    try {
        c->refs[at] = token < 0 ? TextRef(c->text, h->name, h->name_len) : ~(int32_t)hpack_token_ranges[token].first;
        c->refs[at + 1] = static_index ? ~(int32_t)static_index : TextRef(c->text, h->value, h->value_len);
    } catch (const std::bad_alloc &) {
        return HPACK_ERR_NOMEM;
    }
    c->count++;
    return 0;
}

// The block's text as one latin1 string, or empty with an error thrown.
// node-addon-api makes strings from UTF-8 or UTF-16 only.
Napi::Value TextString(Napi::Env env, const std::vector<char> &text)
{
    napi_value str;
    // V8 refuses strings over String::kMaxLength (napi_generic_failure), without
    // throwing; that is the only way this call fails. index.js caps the list
    // limit below it, so this only guards direct users of the addon.
    if (napi_create_string_latin1(env, text.data(), text.size(), &str) != napi_ok) {
        ThrowHpackError(env, HPACK_ERR_HEADER_LIST_TOO_LARGE, "decoded header list too long for a string");
        return Napi::Value();
    }
    return Napi::Value(env, str);
}

Decoder::Decoder(const Napi::CallbackInfo &info) : CoreWrap(info)
{
    struct hpack_decoder_limits limits;
    if (!GetUint32(info[0], kTableSizeMessage.c_str(), &limits.max_table_size) ||
        !GetUint32(info[1], "maxHeaderListSize must be a 32-bit unsigned integer", &limits.max_header_list_size) ||
        !GetUint32(info[2], "maxStringLength must be a 32-bit unsigned integer", &limits.max_string_length))
        return;
    if (limits.max_table_size > HPACK_MAX_TABLE_SIZE) {
        ThrowRangeError(info.Env(), kTableSizeMessage);
        return;
    }
    Adopt(hpack_decoder_new(&limits), "cannot create decoder");
}

Napi::Value Decoder::Decode(const Napi::CallbackInfo &info)
{
    Napi::Env env = info.Env();
    const uint8_t *src;
    size_t len;
    DecodeContext ctx = { &text_, nullptr, 0, 0 };
    if (!GetBytes(info[0], "block", &src, &len) || !GetInt32s(info[1], "refs", &ctx.refs, &ctx.refs_len))
        return Napi::Value();
    if (ctx.refs_len == 0) {
        ThrowRangeError(env, "refs must have room for the field count");
        return Napi::Value();
    }
    text_.clear();
    ssize_t rc = hpack_decoder_decode(core_, src, len, AppendField, &ctx);
    Napi::Value text = rc < 0 ? Napi::Value() : TextString(env, text_);
    ReleaseLargeText();
    if (rc == HPACK_ERR_BUFFER_TOO_SMALL)
        ThrowRangeError(env, "refs has no room for all the block's fields");
    else if (rc < 0)
        ThrowHpackError(env, (int)rc, "HPACK decoding failed");
    else if (!text.IsEmpty())
        ctx.refs[0] = (int32_t)ctx.count;
    return text;
}

Napi::Value Decoder::SetTableSize(const Napi::CallbackInfo &info)
{
    uint32_t size;
    if (GetUint32(info[0], kTableSizeMessage.c_str(), &size))
        ThrowResizeError(info.Env(), hpack_decoder_set_max_table_size(core_, size), "cannot resize the decoder's table");
    return Napi::Value();
}

} // namespace

bool ExportDecoder(Napi::Object exports)
{
    return Decoder::Export(exports, "Decoder",
                           { Decoder::Method<&Decoder::Decode>("decode"),
                             Decoder::Method<&Decoder::SetTableSize>("setTableSize") });
}
