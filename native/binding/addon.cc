// N-API entry point: the C core's Huffman coder, HPACK and QPACK encoders and decoders.
#include <napi.h>

#include "decoder_wrap.h"
#include "encoder_wrap.h"
#include "huffman_wrap.h"
#include "qpack_wrap.h"
#include "static_table_wrap.h"

static Napi::Object Init(Napi::Env env, Napi::Object exports)
{
    exports.Set("huffman", InitHuffman(env));
    exports.Set("Encoder", InitEncoder(env));
    exports.Set("Decoder", InitDecoder(env));
    exports.Set("staticTable", InitStaticTable(env));
    exports.Set("QpackEncoder", InitQpackEncoder(env));
    exports.Set("QpackDecoder", InitQpackDecoder(env));
    return exports;
}

NODE_API_MODULE(hpack, Init)
