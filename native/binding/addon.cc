// N-API entry point: the C core's Huffman coder, encoder and decoder.
#include <napi.h>

#include "decoder_wrap.h"
#include "encoder_wrap.h"
#include "huffman_wrap.h"
#include "static_table_wrap.h"

static Napi::Object Init(Napi::Env env, Napi::Object exports)
{
    exports.Set("huffman", InitHuffman(env));
    exports.Set("Encoder", InitEncoder(env));
    exports.Set("Decoder", InitDecoder(env));
    exports.Set("staticTable", InitStaticTable(env));
    return exports;
}

NODE_API_MODULE(hpack, Init)
