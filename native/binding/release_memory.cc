// releaseFreeMemory(): glibc's malloc_trim(0), which Node offers no way to call. A flood of TLS
// handshakes leaves 50-70 KiB per connection of small OpenSSL and TLSWrap allocations in the main
// arena; once they are freed, glibc gives back only the top of its heap, so the server's RSS stays
// at the flood's peak (bench/results/2026-11-27-pending-handshakes.md). malloc_trim(0) also
// returns the whole free pages inside the heap. Elsewhere (musl, macOS) there is nothing to call
// and it answers false.
#include "release_memory.h"

#include "export_property.h"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace {

// true when memory was given back.
Napi::Value ReleaseFreeMemory(const Napi::CallbackInfo &info)
{
#if defined(__GLIBC__)
    return Napi::Boolean::New(info.Env(), malloc_trim(0) != 0);
#else
    return Napi::Boolean::New(info.Env(), false);
#endif
}

} // namespace

bool ExportReleaseFreeMemory(Napi::Object exports)
{
    return ExportProperty(exports, "releaseFreeMemory",
                          Napi::Function::New(exports.Env(), ReleaseFreeMemory, "releaseFreeMemory"));
}
