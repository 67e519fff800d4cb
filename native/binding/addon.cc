// N-API entry point: the C core's Huffman coder, encoder and decoder. Each
// environment that loads the addon (main thread, worker thread) gets its own
// classes and strings on its own exports; nothing JS lives in process-wide
// state. When the environment is shut down halfway (a worker terminated during
// require), Init stops at the first failed call and returns nothing.
#include <node_api.h>

#include "decoder_wrap.h"
#include "encoder_wrap.h"
#include "huffman_wrap.h"
#include "static_table_wrap.h"

NAPI_MODULE_INIT()
{
    if (ExportHuffman(env, exports) && ExportEncoder(env, exports) && ExportDecoder(env, exports) &&
        ExportStaticTable(env, exports))
        return exports;
    return nullptr;
}
