// brotliDictionary: Brotli with a raw shared dictionary (the "dcb" coding), see brotli_dictionary.cc.
#ifndef HPACK_BINDING_BROTLI_DICTIONARY_H
#define HPACK_BINDING_BROTLI_DICTIONARY_H

#include <napi.h>

// Sets exports.brotliDictionary; false when the environment is going away (see js_errors.h).
bool ExportBrotliDictionary(Napi::Object exports);

#endif
