// Whether a Content-Type is one the server compresses: compressible-types.js is generated
// from the server's own rule (server/compression/compressibility.js) by
// docs/tools/compressible-types.js, so the page has no rule of its own.
import COMPRESSIBLE from './compressible-types.js';

/** @returns {{ essence: string, compressible: boolean } | null} */
export function describeContentType(contentType) {
  if (!contentType) return null;
  const essence = contentType.split(';')[0].trim().toLowerCase();
  return { essence, compressible: COMPRESSIBLE.has(essence) };
}
