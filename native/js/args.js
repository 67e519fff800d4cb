'use strict';
// Argument checks of the HPACK and QPACK classes. Each codec's errors carry its
// own code (ERR_HPACK_INVALID_ARGUMENT, ERR_QPACK_INVALID_ARGUMENT), as the
// addon's do (native/binding/js_errors.h).

function argumentChecks(code) {
  function invalid(ErrorType, message) {
    const err = new ErrorType(message);
    err.code = code;
    return err;
  }

  function checkSize(value, name, max) {
    if (typeof value !== 'number') throw invalid(TypeError, `${name} must be a number`);
    if (!Number.isInteger(value) || value < 0 || value > max) {
      throw invalid(RangeError, `${name} must be an integer from 0 to ${max}, got ${value}`);
    }
    return value;
  }

  function checkOptions(options) {
    if (options === undefined) return {};
    if (options === null || typeof options !== 'object') throw invalid(TypeError, 'options must be an object');
    return options;
  }

  function checkBytes(bytes, name) {
    if (!(bytes instanceof Uint8Array)) throw invalid(TypeError, `${name} must be a Buffer or Uint8Array`);
    return bytes;
  }

  return { invalid, checkSize, checkOptions, checkBytes };
}

module.exports = { argumentChecks };
