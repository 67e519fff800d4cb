// Setting the addon's exports, which each environment (main thread, worker
// thread) gets its own of.
#ifndef HPACK_BINDING_EXPORT_PROPERTY_H
#define HPACK_BINDING_EXPORT_PROPERTY_H

#include <napi.h>

// Sets object[name] = value; false when value could not be made (it is empty)
// or set: the environment is going away, or an exception is pending (see js_errors.h).
bool ExportProperty(Napi::Object object, const char *name, Napi::Value value);

#endif
