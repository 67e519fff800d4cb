// Classes of the addon, defined per environment on its exports.
#include "class_wrap.h"

#include <vector>

bool ExportClass(napi_env env, napi_value exports, const char *name, napi_callback constructor, const Method *methods)
{
    std::vector<napi_property_descriptor> props;
    for (; methods->name; methods++)
        props.push_back({ methods->name, nullptr, methods->callback, nullptr, nullptr, nullptr, napi_default_method, nullptr });
    napi_value cls;
    return Ok(env, napi_define_class(env, name, NAPI_AUTO_LENGTH, constructor, nullptr, props.size(), props.data(), &cls)) &&
           Ok(env, napi_set_named_property(env, exports, name, cls));
}
