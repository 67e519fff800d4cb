// N-API binding of the C core (placeholder until the codec binding lands).
#include <napi.h>

static Napi::Object Init(Napi::Env env, Napi::Object exports) { return exports; }

NODE_API_MODULE(hpack, Init)
