// Encoder: new Encoder(tableSize, indexing, flags, changes); setTableSize(n);
// encode(text, fields, count, output, offset) -> bytes written; close().
//
// changes is a Float64Array whose first element the encoder keeps equal to
// hpack_encoder_changes() after every call, so JS reads it without a call.
//
// The constructor's flags are HPACK_ENCODER_* bits. text, fields and count
// are a block's fields (see field_text.h). The block is written at
// output[offset...]; when that room may be too small, encode writes nothing,
// leaves the encoder as it was and returns the room it needs (more than there
// is). Every argument is read and checked before the encoder's state changes,
// so a refused block leaves it as it was. close() frees the table at once
// (a connection's encoder goes with the connection, not with a later garbage
// collection); any call after it throws.
#include "encoder_wrap.h"

#include "hpack.h"
#include "class_wrap.h"
#include "field_text.h"
#include "js_errors.h"

namespace {

class Encoder : public CoreWrap<Encoder, struct hpack_encoder, hpack_encoder_free> {
public:
    explicit Encoder(const Napi::CallbackInfo &info);

    Napi::Value Encode(const Napi::CallbackInfo &info);
    Napi::Value SetTableSize(const Napi::CallbackInfo &info);
    Napi::Value Close(const Napi::CallbackInfo &info);

private:
    bool Open(Napi::Env env);
    void Publish() { *changes_ = (double)hpack_encoder_changes(core_); }

    FieldText block_;
    Napi::Reference<Napi::Value> changes_array_; // keeps changes_'s memory alive
    double *changes_ = nullptr;
};

Encoder::Encoder(const Napi::CallbackInfo &info) : CoreWrap(info)
{
    uint32_t table_size, indexing, flags;
    if (!GetUint32(info[0], kTableSizeMessage.c_str(), &table_size) ||
        !GetUint32(info[1], "indexing must be 0, 1 or 2", &indexing) ||
        !GetUint32(info[2], "flags must be a 32-bit unsigned integer", &flags))
        return;
    void *changes;
    size_t changes_len;
    if (!GetTypedArray(info[3], napi_float64_array, &changes, &changes_len) || changes_len < 1) {
        ThrowTypeError(info.Env(), "changes must be a Float64Array");
        return;
    }
    if (indexing > HPACK_INDEX_LINEAR || table_size > HPACK_MAX_TABLE_SIZE) {
        ThrowRangeError(info.Env(),
                        "tableSize must be at most " + std::to_string(HPACK_MAX_TABLE_SIZE) + " and indexing 0, 1 or 2");
        return;
    }
    Adopt(hpack_encoder_new(table_size, (enum hpack_indexing)indexing, flags), "cannot create encoder");
    if (!core_)
        return;
    changes_array_ = Napi::Persistent(info[3]);
    changes_ = static_cast<double *>(changes);
    Publish();
}

Napi::Value Encoder::Encode(const Napi::CallbackInfo &info)
{
    Napi::Env env = info.Env();
    uint8_t *dst;
    size_t room;
    if (!Open(env) || !GetRoom(info[3], info[4], &dst, &room) || !block_.Read(info[0], info[1], info[2], Codec::kHpack))
        return Napi::Value();
    size_t bound = hpack_encoder_bound(core_, block_.fields(), block_.count());
    if (bound > room)
        return Napi::Number::New(env, (double)bound);
    ssize_t n = hpack_encoder_encode(core_, block_.fields(), block_.count(), dst, room);
    if (n < 0) {
        ThrowHpackError(env, (int)n, "HPACK encoding failed");
        return Napi::Value();
    }
    Publish();
    return Napi::Number::New(env, (double)n);
}

Napi::Value Encoder::SetTableSize(const Napi::CallbackInfo &info)
{
    uint32_t size;
    if (Open(info.Env()) && GetUint32(info[0], kTableSizeMessage.c_str(), &size)) {
        ThrowResizeError(info.Env(), hpack_encoder_set_table_size(core_, size), "cannot resize the encoder's table");
        Publish();
    }
    return Napi::Value();
}

Napi::Value Encoder::Close(const Napi::CallbackInfo &)
{
    hpack_encoder_free(core_);
    core_ = nullptr;
    return Napi::Value();
}

bool Encoder::Open(Napi::Env env)
{
    if (core_)
        return true;
    ThrowTypeError(env, "the encoder is closed");
    return false;
}

} // namespace

bool ExportEncoder(Napi::Object exports)
{
    return Encoder::Export(exports, "Encoder",
                           { Encoder::Method<&Encoder::Encode>("encode"),
                             Encoder::Method<&Encoder::SetTableSize>("setTableSize"),
                             Encoder::Method<&Encoder::Close>("close") });
}
