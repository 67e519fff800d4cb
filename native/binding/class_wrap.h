// Classes of the addon: a C++ object per JS instance, owning one C core object.
#ifndef HPACK_BINDING_CLASS_WRAP_H
#define HPACK_BINDING_CLASS_WRAP_H

#include <node_api.h>

#include <new>

#include "js_errors.h"

// Defines a class on exports: its constructor and methods ({ name, callback }
// pairs, ending with { nullptr, nullptr }); false when that failed (see Ok).
struct Method {
    const char *name;
    napi_callback callback;
};
bool ExportClass(napi_env env, napi_value exports, const char *name, napi_callback constructor, const Method *methods);

// Wraps a new T into the receiver of a constructor call, T::core made by
// make() (null when out of memory); T is deleted when the receiver is collected.
template <typename T, typename Make>
napi_value WrapNew(napi_env env, napi_value receiver, Make make, const char *what)
{
    T *object = new (std::nothrow) T;
    if (object)
        object->core = make();
    if (!object || !object->core) {
        delete object;
        ThrowHpackError(env, HPACK_ERR_NOMEM, what);
        return nullptr;
    }
    auto finalize = [](napi_env, void *data, void *) { delete static_cast<T *>(data); };
    if (!Ok(env, napi_wrap(env, receiver, object, finalize, nullptr, nullptr))) {
        delete object;
        return nullptr;
    }
    return receiver;
}

#endif
