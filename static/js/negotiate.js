// Client for the server's GET /_negotiate endpoint: what the server would send for a
// path and an Accept-Encoding, and how large each variant is.

export class NegotiateError extends Error {
  /** @param {string} code stable, e.g. NEGOTIATE_NETWORK, NEGOTIATE_HTTP_404 */
  constructor(code, message) {
    super(message);
    this.name = 'NegotiateError';
    this.code = code;
  }
}

/**
 * @param {string} path file to ask about, e.g. '/style.css'
 * @param {string} [acceptEncoding] omit to have the server echo this request's own header
 * @param {string} [availableDictionary] an Available-Dictionary value (`:base64 SHA-256:`) to ask as
 */
export async function askServer(path, acceptEncoding, availableDictionary) {
  const url = new URL('/_negotiate', location.origin);
  url.searchParams.set('path', path);
  if (acceptEncoding !== undefined) url.searchParams.set('ae', acceptEncoding);
  if (availableDictionary !== undefined) url.searchParams.set('ad', availableDictionary);

  let response;
  try {
    response = await fetch(url, { cache: 'no-store', headers: { accept: 'application/json' } });
  } catch (err) {
    throw new NegotiateError('NEGOTIATE_NETWORK', `could not reach /_negotiate: ${err.message}`);
  }
  const type = response.headers.get('content-type') ?? '';
  if (!type.includes('json')) {
    throw new NegotiateError(`NEGOTIATE_HTTP_${response.status}`,
      `/_negotiate answered ${response.status} with ${type || 'no Content-Type'}; is this the negotiate-h2 server?`);
  }
  const body = await response.json().catch(() => null);
  if (body && Array.isArray(body.variants)) return body;
  // Error answers are { error: message, code } with the server's stable code.
  throw new NegotiateError(body?.code ?? `NEGOTIATE_HTTP_${response.status}`,
    body?.error ?? `/_negotiate answered ${response.status} without a variants list`);
}
