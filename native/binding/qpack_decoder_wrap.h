// The QpackDecoder class of the addon (wrapped by native/qpack.js).
#ifndef HPACK_BINDING_QPACK_DECODER_WRAP_H
#define HPACK_BINDING_QPACK_DECODER_WRAP_H

#include <napi.h>

// Sets exports.QpackDecoder; false when that failed (see js_errors.h).
bool ExportQpackDecoder(Napi::Object exports);

#endif
