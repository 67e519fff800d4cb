// Setting the addon's exports.
#include "export_property.h"

bool ExportProperty(Napi::Object object, const char *name, Napi::Value value)
{
    return !value.IsEmpty() && object.Set(name, value).IsJust();
}
