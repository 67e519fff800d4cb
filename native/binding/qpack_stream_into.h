// readEncoderStream / readDecoderStream(output, offset): the instruction bytes
// a QPACK encoder or decoder has waiting, moved to output[offset...] (the
// caller's slab, see native/js/slab.js). Returns the bytes moved or, when that
// room is too small, the room needed (more than there is), having moved nothing.
#ifndef HPACK_BINDING_QPACK_STREAM_INTO_H
#define HPACK_BINDING_QPACK_STREAM_INTO_H

#include <napi.h>

#include "js_errors.h"

template <typename Core, size_t (*Pending)(const Core *), size_t (*Read)(Core *, uint8_t *, size_t)>
Napi::Value ReadStreamInto(const Napi::CallbackInfo &info, Core *core)
{
    uint8_t *dst;
    size_t room;
    if (!GetRoom(info[0], info[1], &dst, &room, Codec::kQpack))
        return Napi::Value();
    size_t pending = Pending(core);
    return Napi::Number::New(info.Env(), (double)(pending > room ? pending : Read(core, dst, room)));
}

#endif
