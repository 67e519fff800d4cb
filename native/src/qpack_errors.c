/* Stable names for enum qpack_error; names become the .code of JS errors. */
#include "qpack.h"

const char *qpack_strerror(int err)
{
    switch (err) {
    case QPACK_OK: return "OK";
    case QPACK_BLOCKED: return "QPACK_BLOCKED";
    case QPACK_ERR_DECOMPRESSION_FAILED: return "ERR_QPACK_DECOMPRESSION_FAILED";
    case QPACK_ERR_ENCODER_STREAM: return "ERR_QPACK_ENCODER_STREAM_ERROR";
    case QPACK_ERR_DECODER_STREAM: return "ERR_QPACK_DECODER_STREAM_ERROR";
    case QPACK_ERR_FIELD_SECTION_TOO_LARGE: return "ERR_QPACK_FIELD_SECTION_TOO_LARGE";
    case QPACK_ERR_BLOCKED_TOO_LARGE: return "ERR_QPACK_BLOCKED_TOO_LARGE";
    case QPACK_ERR_BUFFER_TOO_SMALL: return "ERR_QPACK_BUFFER_TOO_SMALL";
    case QPACK_ERR_NOMEM: return "ERR_QPACK_NOMEM";
    case QPACK_ERR_POISONED: return "ERR_QPACK_POISONED";
    case QPACK_ERR_INVALID_ARGUMENT: return "ERR_QPACK_INVALID_ARGUMENT";
    default: return "ERR_QPACK_UNKNOWN";
    }
}

unsigned qpack_h3_error_code(int err)
{
    switch (err) {
    case QPACK_ERR_DECOMPRESSION_FAILED:
    case QPACK_ERR_ENCODER_STREAM:
    case QPACK_ERR_DECODER_STREAM:
        return (unsigned)-err;
    default:
        return 0;
    }
}
