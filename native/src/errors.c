/* Stable names and descriptions for enum hpack_error; names become the .code of JS errors. */
#include "hpack.h"

const char *hpack_strerror(int err)
{
    switch (err) {
    case HPACK_OK: return "OK";
    case HPACK_ERR_HUFFMAN: return "ERR_HPACK_HUFFMAN";
    case HPACK_ERR_INTEGER: return "ERR_HPACK_INTEGER";
    case HPACK_ERR_INDEX: return "ERR_HPACK_INDEX";
    case HPACK_ERR_TABLE_SIZE: return "ERR_HPACK_TABLE_SIZE";
    case HPACK_ERR_TRUNCATED: return "ERR_HPACK_TRUNCATED";
    case HPACK_ERR_HEADER_LIST_TOO_LARGE: return "ERR_HPACK_HEADER_LIST_TOO_LARGE";
    case HPACK_ERR_STRING_TOO_LONG: return "ERR_HPACK_STRING_TOO_LONG";
    case HPACK_ERR_BUFFER_TOO_SMALL: return "ERR_HPACK_BUFFER_TOO_SMALL";
    case HPACK_ERR_NOMEM: return "ERR_HPACK_NOMEM";
    case HPACK_ERR_POISONED: return "ERR_HPACK_POISONED";
    case HPACK_ERR_INVALID_ARGUMENT: return "ERR_HPACK_INVALID_ARGUMENT";
    default: return "ERR_HPACK_UNKNOWN";
    }
}

const char *hpack_error_description(int err)
{
    switch (err) {
    case HPACK_OK: return "no error";
    case HPACK_ERR_HUFFMAN: return "invalid Huffman-coded string";
    case HPACK_ERR_INTEGER: return "integer overflows 32 bits or is over-long";
    case HPACK_ERR_INDEX: return "index 0 or past the static and dynamic tables";
    case HPACK_ERR_TABLE_SIZE: return "dynamic table size update above the limit or after a field";
    case HPACK_ERR_TRUNCATED: return "header block ends inside a field";
    case HPACK_ERR_HEADER_LIST_TOO_LARGE: return "decoded header list exceeds maxHeaderListSize";
    case HPACK_ERR_STRING_TOO_LONG: return "a name or value exceeds maxStringLength";
    case HPACK_ERR_BUFFER_TOO_SMALL: return "output buffer too small";
    case HPACK_ERR_NOMEM: return "out of memory";
    case HPACK_ERR_POISONED: return "decoder failed earlier on this connection and cannot continue";
    case HPACK_ERR_INVALID_ARGUMENT: return "invalid argument";
    default: return "unknown error";
    }
}
