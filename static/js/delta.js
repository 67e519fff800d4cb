// The dictionary delta (RFC 9842) this visit got: the page loads a script the server marks as a
// dictionary (Use-As-Dictionary, from static/negotiate.config.json), then the next release of
// it. A browser that holds the first sends its hash in Available-Dictionary and may get the
// second as a delta (dcb or dcz) against it. What the browser received comes from Resource
// Timing; what each coding would have cost, from /_negotiate.
import { askServer } from './negotiate.js';

/** Adds <script src=url> and resolves once it has run (rejects if it failed to load). */
function loadScript(url) {
  return new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = url;
    script.onload = () => resolve();
    script.onerror = () => reject(new Error(`${url} did not load`));
    document.head.append(script);
  });
}

/**
 * `:base64:`, the Structured Field byte sequence Available-Dictionary carries (RFC 9842 2.2);
 * undefined outside a secure context (no crypto.subtle), where no browser uses dictionaries.
 */
async function availableDictionary(url) {
  if (!globalThis.crypto?.subtle) return undefined;
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', await response.arrayBuffer()));
  return `:${btoa(String.fromCharCode(...digest))}:`;
}

/**
 * @param {{ dictionary: string, file: string }} pair paths from assets.json
 * @returns {Promise<{ received: { coding: string|null, wireBytes: number|null, decodedBytes: number|null },
 *   acceptEncoding: string|null, brBytes: number|null,
 *   delta: { coding: string|null, bytes: number|null, reason: string } }>}
 */
export async function measureDelta(pair) {
  await loadScript(pair.dictionary);
  // A query of its own per visit: the file is fetched again, never taken from the HTTP cache,
  // so every visit shows what the network carried. The dictionary's match ignores the query.
  const url = new URL(pair.file, location.href);
  url.searchParams.set('visit', String(Date.now()));
  await loadScript(url.href);
  const timing = performance.getEntriesByName(url.href)[0];
  const hash = await availableDictionary(pair.dictionary);
  // Without `ae`, /_negotiate echoes this request's Accept-Encoding: the browser's own.
  const plain = await askServer(pair.file);
  // What a browser holding the dictionary asks with: its codings plus the dictionary codings.
  const withDictionary = await askServer(pair.file, `${plain.acceptEncoding ?? ''}, dcb, dcz`, hash);
  return {
    received: {
      // Resource Timing's contentEncoding (Chromium 138+) names the coding; older browsers: null.
      coding: timing?.contentEncoding || null,
      wireBytes: timing?.encodedBodySize ?? null,
      decodedBytes: timing?.decodedBodySize ?? null,
    },
    acceptEncoding: plain.acceptEncoding,
    brBytes: plain.variants.find((v) => v.coding === 'br')?.bytes ?? null,
    delta: {
      coding: withDictionary.dictionary?.used ? withDictionary.chosen : null,
      bytes: withDictionary.dictionary?.bytes ?? null,
      reason: withDictionary.dictionary?.reason ?? 'the server has no dictionary rule for this file',
    },
  };
}
