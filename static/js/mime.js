// Whether a Content-Type is compressible, decided as the server decides it
// (server/compression/compressibility.js, isCompressibleType): mime-db's flag first, then the text-like
// fallback pattern, and never the unknown type application/octet-stream.
// test/unit/compressibility.test.js checks that the two agree on every mime-db type.
import mimeDb from '../vendor/mime-db.js';

const TEXT_LIKE = /^text\/|\+(?:json|text|xml)$/i;
const UNKNOWN_TYPE = 'application/octet-stream';

/** @returns {{ essence: string, compressible: boolean } | null} */
export function describeContentType(contentType) {
  if (!contentType) return null;
  const essence = contentType.split(';')[0].trim().toLowerCase();
  const entry = mimeDb[essence];
  const flagged = entry && typeof entry.compressible === 'boolean'
    ? entry.compressible
    : TEXT_LIKE.test(essence);
  return { essence, compressible: flagged && essence !== UNKNOWN_TYPE };
}
