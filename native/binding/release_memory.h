// Giving the C library's free memory back to the system (see release_memory.cc).
#ifndef HPACK_BINDING_RELEASE_MEMORY_H
#define HPACK_BINDING_RELEASE_MEMORY_H

#include <napi.h>

// Sets exports.releaseFreeMemory; false when it could not be set.
bool ExportReleaseFreeMemory(Napi::Object exports);

#endif
