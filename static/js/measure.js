// Facts about how this page and its assets were actually delivered on this visit.

/** 'h2', 'http/1.1', … as the browser negotiated it for the page itself (ALPN). */
export function pageProtocol() {
  const [navigation] = performance.getEntriesByType('navigation');
  return navigation?.nextHopProtocol || 'unknown';
}

/** The Resource Timing entry of the load that brought `asset` into the page. */
function loadTimingOf(asset) {
  if (asset.document) return performance.getEntriesByType('navigation')[0] ?? null;
  // The earliest entry is the page's own load; later ones are our HEAD probes.
  return performance.getEntriesByName(new URL(asset.path, location.href).href)[0] ?? null;
}

/**
 * Resource Timing has no coding name, so ask with a HEAD request: fetch sends the
 * browser's own Accept-Encoding, so the server negotiates exactly as for the real load.
 */
async function probeHeaders(url) {
  const response = await fetch(url, { method: 'HEAD', cache: 'no-store' });
  if (!response.ok) throw new Error(`HEAD ${url} answered ${response.status}`);
  return {
    coding: response.headers.get('content-encoding') ?? 'identity',
    contentType: response.headers.get('content-type'),
  };
}

/**
 * @param {{ path: string, document?: boolean }[]} assets
 * @returns {Promise<Array<{ asset, coding, contentType, wireBytes, decodedBytes, fromCache, error? }>>}
 */
export async function measureAssets(assets) {
  // Read every timing before probing, so no probe's entry can be mistaken for a load.
  const timings = assets.map(loadTimingOf);
  return Promise.all(assets.map(async (asset, i) => {
    const timing = timings[i];
    const sizes = timing && timing.decodedBodySize > 0
      ? {
          wireBytes: timing.encodedBodySize,
          decodedBytes: timing.decodedBodySize,
          fromCache: timing.transferSize === 0,
        }
      : { wireBytes: null, decodedBytes: null, fromCache: false };
    const url = asset.document ? location.pathname : asset.path;
    try {
      return { asset, ...sizes, ...(await probeHeaders(url)) };
    } catch (err) {
      return { asset, ...sizes, coding: null, contentType: null, error: err.message };
    }
  }));
}
