'use strict';
// The server's QPACK counters, read from its --metrics endpoint (Prometheus text) before and
// after a measured run: negotiate_qpack_encoded_bytes_total by stream and the HTTP/3 responses
// of negotiate_responses_total, so that header bytes per HTTP/3 response are what the server's
// encoder wrote, not what a client reports.

const SAMPLE = /^(negotiate_qpack_encoded_bytes_total|negotiate_responses_total)\{([^}]*)\} (\S+)$/gm;

class QpackCounters {
  constructor({ sectionBytes, encoderBytes, responses }) {
    Object.assign(this, { sectionBytes, encoderBytes, responses });
  }

  minus(earlier) {
    return new QpackCounters({
      sectionBytes: this.sectionBytes - earlier.sectionBytes,
      encoderBytes: this.encoderBytes - earlier.encoderBytes,
      responses: this.responses - earlier.responses,
    });
  }

  perResponse(bytes) {
    return this.responses > 0 ? bytes / this.responses : null;
  }
}

// Pure: the counters in an exposition text. A text without the QPACK family (a server from
// before it) is an error, not zero bytes.
function parseQpackCounters(text) {
  const totals = { sectionBytes: null, encoderBytes: null, responses: 0 };
  for (const [, name, labels, value] of text.matchAll(SAMPLE)) {
    if (name === 'negotiate_responses_total') {
      if (/(^|,)protocol="h3"/.test(labels)) totals.responses += Number(value);
    } else if (labels === 'stream="request"') totals.sectionBytes = Number(value);
    else if (labels === 'stream="encoder"') totals.encoderBytes = Number(value);
  }
  if (totals.sectionBytes === null || totals.encoderBytes === null) {
    throw Object.assign(new Error('the server\'s metrics have no negotiate_qpack_encoded_bytes_total{stream="request"|"encoder"}'), { code: 'ENOQPACKMETRICS' });
  }
  return new QpackCounters(totals);
}

// Pure: every sample of the families whose names start with prefix, 'name{labels}' (or 'name'
// for one without labels) -> value.
function parseSamples(text, prefix) {
  const samples = new Map();
  for (const line of text.split('\n')) {
    if (!line.startsWith(prefix)) continue;
    const space = line.lastIndexOf(' ');
    samples.set(line.slice(0, space), Number(line.slice(space + 1)));
  }
  return samples;
}

async function readMetrics(url) {
  const res = await fetch(url, { signal: AbortSignal.timeout(5000) });
  if (res.status !== 200) throw Object.assign(new Error(`${url} answered ${res.status}`), { code: 'EMETRICS' });
  return res.text();
}

async function readQpackCounters(url) {
  return parseQpackCounters(await readMetrics(url));
}

module.exports = { readQpackCounters, parseQpackCounters, readMetrics, parseSamples };
