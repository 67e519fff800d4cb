// Whether a Content-Type is compressible, decided the way the server's `compressible`
// package decides it: mime-db's flag first, then the text-like fallback pattern.
import mimeDb from '../vendor/mime-db.js';

const TEXT_LIKE = /^text\/|\+(?:json|text|xml)$/i;

/** @returns {{ essence: string, compressible: boolean } | null} */
export function describeContentType(contentType) {
  if (!contentType) return null;
  const essence = contentType.split(';')[0].trim().toLowerCase();
  const entry = mimeDb[essence];
  const compressible = entry && typeof entry.compressible === 'boolean'
    ? entry.compressible
    : TEXT_LIKE.test(essence);
  return { essence, compressible };
}
