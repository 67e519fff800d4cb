'use strict';
// Reads the JSON that bench/wrk/rotate.lua writes from wrk's done(): the
// same shape as parseWrkOutput's, with latencies in milliseconds.
function parseWrkReport(text) {
  let r;
  try {
    r = JSON.parse(text);
  } catch (err) {
    throw Object.assign(new Error(`wrk report is not JSON: ${err.message}`), { code: 'EWRKREPORT' });
  }
  const need = ['requests', 'durationUs', 'bytes', 'latencyUs', 'errors'];
  const missing = need.filter((k) => r === null || typeof r !== 'object' || !(k in r));
  if (missing.length) throw Object.assign(new Error(`wrk report lacks ${missing.join(', ')}`), { code: 'EWRKREPORT' });
  if (!(r.durationUs > 0)) throw Object.assign(new Error(`wrk report has duration ${r.durationUs} us`), { code: 'EWRKREPORT' });
  const ms = (us) => (Number.isFinite(us) ? us / 1000 : null);
  const seconds = r.durationUs / 1e6;
  // wrk's "status" errors are responses with a status of 400 or more.
  const { connect, read, write, timeout, status } = r.errors;
  const errors = { connect, read, write, timeout, non2xx: status };
  return {
    requests: r.requests,
    durationS: seconds,
    bytesRead: r.bytes,
    reqPerSec: r.requests / seconds,
    bytesPerSec: r.bytes / seconds,
    latencyMs: {
      mean: ms(r.latencyUs.mean), p50: ms(r.latencyUs.p50), p90: ms(r.latencyUs.p90), p99: ms(r.latencyUs.p99), max: ms(r.latencyUs.max),
    },
    errors: { ...errors, total: Object.values(errors).reduce((a, b) => a + b, 0) },
  };
}

module.exports = { parseWrkReport };
