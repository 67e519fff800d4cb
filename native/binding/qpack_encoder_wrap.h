// The QpackEncoder class of the addon (wrapped by native/qpack.js).
#ifndef HPACK_BINDING_QPACK_ENCODER_WRAP_H
#define HPACK_BINDING_QPACK_ENCODER_WRAP_H

#include <napi.h>

// Sets exports.QpackEncoder; false when that failed (see js_errors.h).
bool ExportQpackEncoder(Napi::Object exports);

#endif
