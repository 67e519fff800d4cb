// Entry point of the addon (node-addon-api): the C core's Huffman coder,
// HPACK and QPACK encoders and decoders, Brotli with a dictionary, and
// glibc's malloc_trim. Each environment that loads the addon
// (main thread, worker thread) gets its own classes and static-table strings on its own
// exports, which native/index.js keeps; no native code looks them up again, so
// there is no per-environment instance data and nothing JS in process-wide
// state. When the environment is shut down halfway (a worker terminated during
// require), Init stops at the first failed step and returns nothing.
#include <napi.h>

#include "brotli_dictionary.h"
#include "decoder_wrap.h"
#include "export_property.h"
#include "hpack.h"
#include "encoder_wrap.h"
#include "huffman_wrap.h"
#include "qpack_decoder_wrap.h"
#include "qpack_encoder_wrap.h"
#include "release_memory.h"
#include "static_table_wrap.h"

namespace {

Napi::Object Init(Napi::Env env, Napi::Object exports)
{
    if (ExportHuffman(exports) && ExportEncoder(exports) && ExportDecoder(exports) && ExportStaticTable(exports) &&
        ExportQpackEncoder(exports) && ExportQpackDecoder(exports) && ExportBrotliDictionary(exports) && ExportReleaseFreeMemory(exports) &&
        ExportProperty(exports, "maxTableSize", Napi::Number::New(env, HPACK_MAX_TABLE_SIZE)))
        return exports;
    return Napi::Object();
}

} // namespace

NODE_API_MODULE(hpack, Init)
