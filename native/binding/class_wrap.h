// Classes of the addon: a C++ object per JS instance (Napi::ObjectWrap), owning one C core object.
#ifndef HPACK_BINDING_CLASS_WRAP_H
#define HPACK_BINDING_CLASS_WRAP_H

#include <napi.h>

#include "export_property.h"
#include "js_errors.h"

// Base of the encoder and decoder classes: core_ is the C core's object,
// freed by Free when the JS instance is collected; kCodec names the codes of their errors.
template <typename T, typename Core, void (*Free)(Core *), Codec kCodec = Codec::kHpack>
class CoreWrap : public Napi::ObjectWrap<T> {
public:
    ~CoreWrap() override { Free(core_); }

    // node-addon-api's own refusal of a call without new has no .code.
    static Napi::Value OnCalledAsFunction(const Napi::CallbackInfo &info)
    {
        ThrowTypeError(info.Env(), "a class constructor must be called with new", kCodec);
        return Napi::Value();
    }

    // Defines the class on exports under name, with methods (T::Method<&T::F>("f")).
    static bool Export(Napi::Object exports, const char *name,
                       const std::initializer_list<Napi::ClassPropertyDescriptor<T>> &methods)
    {
        return ExportProperty(exports, name, T::DefineClass(exports.Env(), name, methods));
    }

    template <typename Napi::InstanceWrap<T>::InstanceMethodCallback method>
    static Napi::ClassPropertyDescriptor<T> Method(const char *name)
    {
        // Writable and configurable, as a JS class's methods.
        return T::template InstanceMethod<method>(name, napi_default_method);
    }

protected:
    using Napi::ObjectWrap<T>::ObjectWrap;

    // Takes core, made once the constructor's arguments were checked; null
    // (out of memory) throws. When wrapping the receiver failed (the
    // environment is going away: nothing was thrown and no JS can reach this
    // object), the core is freed at once; node-addon-api keeps the unwrapped
    // object itself.
    void Adopt(Core *core, const char *what)
    {
        if (this->IsEmpty())
            Free(core);
        else if (!(core_ = core))
            ThrowOutOfMemory(this->Env(), kCodec, what);
    }

    Core *core_ = nullptr;
};

#endif
