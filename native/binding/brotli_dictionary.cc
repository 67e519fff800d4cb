// Brotli with a raw shared dictionary, for the "dcb" content coding (RFC 9842 4.1).
//
// Node's zlib binding has no way to attach a dictionary to a Brotli stream, but the node
// executable carries Brotli (1.1.0 in Node 20) with the shared-dictionary calls exported
// (BrotliEncoderPrepareDictionary, BrotliEncoderAttachPreparedDictionary,
// BrotliDecoderAttachDictionary). They are looked up at run time with dlsym() rather than
// linked: the addon then builds without Brotli's headers or sources, adds no second copy of
// Brotli to the process, and loads on a node without them (a distribution build linked against
// an older libbrotli, say), where `available` is false and the server simply does not offer
// dcb. The prototypes below are Brotli 1.1.0's (c/include/brotli/encode.h, decode.h,
// shared_dictionary.h); the enum values are fixed by that ABI.
//
// compress(input, dictionary, quality, lgwin) and decompress(input, dictionary, maxOutput)
// return promises: the work runs on libuv's thread pool (napi async work), like zlib's, and
// holds references to its input Buffers until it is done.
#include "brotli_dictionary.h"

#include <dlfcn.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "export_property.h"
#include "js_errors.h"

namespace {

using BrotliBool = int;
using AllocFunc = void *(*)(void *, size_t);
using FreeFunc = void (*)(void *, void *);
struct EncoderState;
struct DecoderState;
struct PreparedDictionary;

constexpr int kRawDictionary = 0;         // BROTLI_SHARED_DICTIONARY_RAW
constexpr int kParamQuality = 1;          // BROTLI_PARAM_QUALITY
constexpr int kParamLgwin = 2;            // BROTLI_PARAM_LGWIN
constexpr int kParamSizeHint = 5;         // BROTLI_PARAM_SIZE_HINT
constexpr int kOperationFinish = 2;       // BROTLI_OPERATION_FINISH
constexpr int kDecoderError = 0;          // BROTLI_DECODER_RESULT_ERROR
constexpr int kDecoderSuccess = 1;        // BROTLI_DECODER_RESULT_SUCCESS
constexpr int kDecoderNeedsMoreInput = 2; // BROTLI_DECODER_RESULT_NEEDS_MORE_INPUT
// BrotliEncoderVersion() of 1.1.0: the first with shared dictionaries in the encoder.
constexpr uint32_t kMinVersion = 0x1001000;
constexpr size_t kChunk = 64 * 1024;

struct Api {
    uint32_t (*encoderVersion)();
    PreparedDictionary *(*prepareDictionary)(int, size_t, const uint8_t *, int, AllocFunc, FreeFunc, void *);
    void (*destroyPreparedDictionary)(PreparedDictionary *);
    EncoderState *(*createEncoder)(AllocFunc, FreeFunc, void *);
    BrotliBool (*setEncoderParameter)(EncoderState *, int, uint32_t);
    BrotliBool (*attachPreparedDictionary)(EncoderState *, const PreparedDictionary *);
    BrotliBool (*compressStream)(EncoderState *, int, size_t *, const uint8_t **, size_t *, uint8_t **, size_t *);
    BrotliBool (*encoderIsFinished)(EncoderState *);
    void (*destroyEncoder)(EncoderState *);
    DecoderState *(*createDecoder)(AllocFunc, FreeFunc, void *);
    BrotliBool (*attachDictionary)(DecoderState *, int, size_t, const uint8_t *);
    int (*decompressStream)(DecoderState *, size_t *, const uint8_t **, size_t *, uint8_t **, size_t *);
    int (*decoderErrorCode)(DecoderState *);
    const char *(*decoderErrorString)(int);
    void (*destroyDecoder)(DecoderState *);
};

template <typename F> bool Find(const char *name, F *out)
{
    *out = reinterpret_cast<F>(dlsym(RTLD_DEFAULT, name));
    return *out != nullptr;
}

// The process's Brotli, or why there is none usable.
const Api *LoadApi(std::string *why)
{
    static Api api;
    static bool loaded = false;
    static std::string missing;
    if (!loaded) {
        loaded = true;
        const char *absent = nullptr;
#define FIND(field, name) \
    if (absent == nullptr && !Find(name, &api.field)) absent = name;
        FIND(encoderVersion, "BrotliEncoderVersion")
        FIND(prepareDictionary, "BrotliEncoderPrepareDictionary")
        FIND(destroyPreparedDictionary, "BrotliEncoderDestroyPreparedDictionary")
        FIND(createEncoder, "BrotliEncoderCreateInstance")
        FIND(setEncoderParameter, "BrotliEncoderSetParameter")
        FIND(attachPreparedDictionary, "BrotliEncoderAttachPreparedDictionary")
        FIND(compressStream, "BrotliEncoderCompressStream")
        FIND(encoderIsFinished, "BrotliEncoderIsFinished")
        FIND(destroyEncoder, "BrotliEncoderDestroyInstance")
        FIND(createDecoder, "BrotliDecoderCreateInstance")
        FIND(attachDictionary, "BrotliDecoderAttachDictionary")
        FIND(decompressStream, "BrotliDecoderDecompressStream")
        FIND(decoderErrorCode, "BrotliDecoderGetErrorCode")
        FIND(decoderErrorString, "BrotliDecoderErrorString")
        FIND(destroyDecoder, "BrotliDecoderDestroyInstance")
#undef FIND
        if (absent != nullptr)
            missing = std::string("the process exports no ") + absent;
        else if (api.encoderVersion() < kMinVersion)
            missing = "the process's Brotli is older than 1.1.0";
    }
    if (!missing.empty()) {
        *why = missing;
        return nullptr;
    }
    return &api;
}

class DictionaryWork : public Napi::AsyncWorker {
  public:
    DictionaryWork(Napi::Env env, const Api *api, Napi::Object input, Napi::Object dictionary)
        : Napi::AsyncWorker(env, "brotliDictionary"), api_(api), deferred_(Napi::Promise::Deferred::New(env)),
          inputRef_(Napi::Persistent(input)), dictionaryRef_(Napi::Persistent(dictionary))
    {
    }

    Napi::Promise Start(const uint8_t *input, size_t inputLen, const uint8_t *dictionary, size_t dictionaryLen)
    {
        input_ = input;
        inputLen_ = inputLen;
        dictionary_ = dictionary;
        dictionaryLen_ = dictionaryLen;
        Queue();
        return deferred_.Promise();
    }

  protected:
    void OnOK() override
    {
        Napi::Env env = Env();
        Napi::HandleScope scope(env);
        Napi::Buffer<uint8_t> out = Napi::Buffer<uint8_t>::Copy(env, output_.data(), output_.size());
        if (!out.IsEmpty())
            deferred_.Resolve(out);
    }

    void OnError(const Napi::Error &error) override
    {
        Napi::HandleScope scope(Env());
        Napi::Object err = error.Value();
        if (!err.IsEmpty()) {
            (void)err.Set("code", Napi::String::New(Env(), code_));
            deferred_.Reject(err);
        }
    }

    void Fail(const char *code, const std::string &message)
    {
        code_ = code;
        SetError(message);
    }

    const Api *api_;
    const uint8_t *input_ = nullptr;
    size_t inputLen_ = 0;
    const uint8_t *dictionary_ = nullptr;
    size_t dictionaryLen_ = 0;
    std::vector<uint8_t> output_;

  private:
    Napi::Promise::Deferred deferred_;
    Napi::ObjectReference inputRef_;
    Napi::ObjectReference dictionaryRef_;
    const char *code_ = "ERR_BROTLI_DICTIONARY";
};

class CompressWork : public DictionaryWork {
  public:
    CompressWork(Napi::Env env, const Api *api, Napi::Object input, Napi::Object dictionary, int quality, int lgwin)
        : DictionaryWork(env, api, input, dictionary), quality_(quality), lgwin_(lgwin)
    {
    }

  protected:
    void Execute() override
    {
        PreparedDictionary *prepared =
            api_->prepareDictionary(kRawDictionary, dictionaryLen_, dictionary_, quality_, nullptr, nullptr, nullptr);
        EncoderState *state = api_->createEncoder(nullptr, nullptr, nullptr);
        bool ok = prepared != nullptr && state != nullptr &&
                  api_->setEncoderParameter(state, kParamQuality, (uint32_t)quality_) &&
                  api_->setEncoderParameter(state, kParamLgwin, (uint32_t)lgwin_) &&
                  api_->setEncoderParameter(state, kParamSizeHint, (uint32_t)std::min<size_t>(inputLen_, 1u << 30)) &&
                  api_->attachPreparedDictionary(state, prepared);
        size_t availableIn = inputLen_;
        const uint8_t *nextIn = input_;
        while (ok && !api_->encoderIsFinished(state)) {
            size_t used = output_.size();
            output_.resize(used + kChunk);
            size_t availableOut = kChunk;
            uint8_t *nextOut = output_.data() + used;
            ok = api_->compressStream(state, kOperationFinish, &availableIn, &nextIn, &availableOut, &nextOut, nullptr);
            output_.resize(used + kChunk - availableOut);
        }
        if (state != nullptr)
            api_->destroyEncoder(state);
        if (prepared != nullptr)
            api_->destroyPreparedDictionary(prepared);
        if (!ok)
            Fail("ERR_BROTLI_DICTIONARY", "Brotli compression with a dictionary failed");
    }

  private:
    int quality_;
    int lgwin_;
};

class DecompressWork : public DictionaryWork {
  public:
    DecompressWork(Napi::Env env, const Api *api, Napi::Object input, Napi::Object dictionary, double maxOutput)
        : DictionaryWork(env, api, input, dictionary), maxOutput_(maxOutput)
    {
    }

  protected:
    // One chunk of output at a time, stopping as soon as the output passes maxOutput, so a
    // bomb costs at most maxOutput plus a chunk (the CodingEngine contract, codings.js).
    void Execute() override
    {
        DecoderState *state = api_->createDecoder(nullptr, nullptr, nullptr);
        if (state == nullptr || !api_->attachDictionary(state, kRawDictionary, dictionaryLen_, dictionary_)) {
            if (state != nullptr)
                api_->destroyDecoder(state);
            Fail("ERR_BROTLI_DICTIONARY", "cannot attach the dictionary to a Brotli decoder");
            return;
        }
        size_t availableIn = inputLen_;
        const uint8_t *nextIn = input_;
        int result;
        for (;;) {
            size_t used = output_.size();
            if ((double)used > maxOutput_) {
                api_->destroyDecoder(state);
                Fail("ERR_BUFFER_TOO_LARGE", "decoded output exceeds maxOutputLength");
                return;
            }
            output_.resize(used + kChunk);
            size_t availableOut = kChunk;
            uint8_t *nextOut = output_.data() + used;
            result = api_->decompressStream(state, &availableIn, &nextIn, &availableOut, &nextOut, nullptr);
            output_.resize(used + kChunk - availableOut);
            if (result == kDecoderSuccess || result == kDecoderError || result == kDecoderNeedsMoreInput)
                break;
        }
        std::string reason = result == kDecoderError ? api_->decoderErrorString(api_->decoderErrorCode(state)) : "";
        api_->destroyDecoder(state);
        if ((double)output_.size() > maxOutput_)
            Fail("ERR_BUFFER_TOO_LARGE", "decoded output exceeds maxOutputLength");
        else if (result == kDecoderError)
            Fail("ERR_BROTLI_DECODE", "invalid Brotli stream: " + reason);
        else if (result == kDecoderNeedsMoreInput)
            Fail("ERR_BROTLI_TRUNCATED", "Brotli input ends inside the stream");
        else if (availableIn != 0)
            Fail("ERR_BROTLI_TRAILING", "bytes after the end of the Brotli stream");
    }

  private:
    double maxOutput_;
};

// The process has no usable Brotli (LoadApi's reason): callers check `available` first.
void ThrowUnavailable(Napi::Env env, const std::string &why)
{
    Napi::Error error = Napi::Error::New(env, "Brotli with a dictionary is unavailable: " + why);
    if (!error.IsEmpty() && error.Value().Set("code", Napi::String::New(env, "ERR_BROTLI_UNAVAILABLE")).IsJust())
        error.ThrowAsJavaScriptException();
}

bool TwoBuffers(const Napi::CallbackInfo &info, const uint8_t **input, size_t *inputLen, const uint8_t **dictionary,
                size_t *dictionaryLen)
{
    return GetBytes(info[0], "input", input, inputLen, Codec::kBrotli) &&
           GetBytes(info[1], "dictionary", dictionary, dictionaryLen, Codec::kBrotli);
}

bool IntArg(Napi::Value value, const char *what, int min, int max, int *out)
{
    double n = 0;
    if (value.IsNumber())
        n = value.As<Napi::Number>().DoubleValue();
    if (!value.IsNumber() || n != (double)(int)n || n < min || n > max) {
        ThrowRangeError(value.Env(),
                        std::string(what) + " must be an integer from " + std::to_string(min) + " to " + std::to_string(max),
                        Codec::kBrotli);
        return false;
    }
    *out = (int)n;
    return true;
}

// compress(input, dictionary, quality 0-11, lgwin 10-24): Promise<Buffer>.
Napi::Value Compress(const Napi::CallbackInfo &info)
{
    std::string why;
    const Api *api = LoadApi(&why);
    const uint8_t *input, *dictionary;
    size_t inputLen, dictionaryLen;
    int quality, lgwin;
    if (api == nullptr) {
        ThrowUnavailable(info.Env(), why);
        return Napi::Value();
    }
    if (!TwoBuffers(info, &input, &inputLen, &dictionary, &dictionaryLen) ||
        !IntArg(info[2], "quality", 0, 11, &quality) || !IntArg(info[3], "lgwin", 10, 24, &lgwin))
        return Napi::Value();
    auto *work = new CompressWork(info.Env(), api, info[0].As<Napi::Object>(), info[1].As<Napi::Object>(), quality, lgwin);
    return work->Start(input, inputLen, dictionary, dictionaryLen);
}

// decompress(input, dictionary, maxOutput): Promise<Buffer>.
Napi::Value Decompress(const Napi::CallbackInfo &info)
{
    std::string why;
    const Api *api = LoadApi(&why);
    const uint8_t *input, *dictionary;
    size_t inputLen, dictionaryLen;
    if (api == nullptr) {
        ThrowUnavailable(info.Env(), why);
        return Napi::Value();
    }
    if (!TwoBuffers(info, &input, &inputLen, &dictionary, &dictionaryLen))
        return Napi::Value();
    if (!info[2].IsNumber() || !(info[2].As<Napi::Number>().DoubleValue() >= 1)) {
        ThrowRangeError(info.Env(), "maxOutput must be a number >= 1", Codec::kBrotli);
        return Napi::Value();
    }
    auto *work = new DecompressWork(info.Env(), api, info[0].As<Napi::Object>(), info[1].As<Napi::Object>(),
                                    info[2].As<Napi::Number>().DoubleValue());
    return work->Start(input, inputLen, dictionary, dictionaryLen);
}

} // namespace

bool ExportBrotliDictionary(Napi::Object exports)
{
    Napi::Env env = exports.Env();
    std::string why;
    const Api *api = LoadApi(&why);
    Napi::Object object = Napi::Object::New(env);
    return !object.IsEmpty() && ExportProperty(object, "available", Napi::Boolean::New(env, api != nullptr)) &&
           ExportProperty(object, "unavailableReason", api != nullptr ? env.Null() : Napi::String::New(env, why)) &&
           ExportProperty(object, "version",
                          api != nullptr ? Napi::Number::New(env, api->encoderVersion()) : env.Null()) &&
           ExportProperty(object, "compress", Napi::Function::New(env, Compress, "compress")) &&
           ExportProperty(object, "decompress", Napi::Function::New(env, Decompress, "decompress")) &&
           ExportProperty(exports, "brotliDictionary", object);
}
