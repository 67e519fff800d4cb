'use strict';
// The native HTTP/1.1 engine against llhttp (Node's HTTP server, configured as startServer
// configures it): every corpus request, followed by a probe request that asks to close, goes
// over TLS to both. The outcome (each response's status, whether the probe was answered, or
// a rejection that closed the connection) must be the same, except where the corpus says
// the native engine is stricter on purpose (and why).

const { describe, test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const { startTestServer } = require('../helpers/server');
const { exchange, parseResponses } = require('../helpers/raw-http1');
const { buildCorpus, outcome, PROBE, PROBE_BODY } = require('../helpers/h1-corpus');

const FILES = { 'a.txt': 'a\n', 'index.html': 'i\n', 'probe.txt': PROBE_BODY };
// A case that leaves a server waiting (llhttp reading a body that never comes) ends here.
const TIMEOUTS = { headersTimeout: 2_000, requestTimeout: 3_000 };

let llhttp;
let native;

before(async () => {
  [llhttp, native] = await Promise.all([
    startTestServer({ engine: 'node', files: FILES, timeouts: TIMEOUTS }),
    startTestServer({ engine: 'native', files: FILES, timeouts: TIMEOUTS }),
  ]);
});

after(() => Promise.all([llhttp.close(), native.close()]));

async function outcomeOf(server, ca, bytes) {
  const { bytes: received, closed } = await exchange({ port: server.port, ca, payload: Buffer.concat([bytes, PROBE]), waitMs: 4_000 });
  return outcome(parseResponses(received)) + (closed ? '' : ' (left open)');
}

describe('native HTTP/1.1 engine vs llhttp', { concurrency: 8 }, () => {
  for (const c of buildCorpus()) {
    test(c.name, async (t) => {
      const ca = llhttp.server.certificate;
      const [expectedLlhttp, got] = await Promise.all([outcomeOf(llhttp, ca, c.bytes), outcomeOf(native, ca, c.bytes)]);
      if (c.native !== undefined) t.diagnostic(`llhttp: ${expectedLlhttp}; stricter on purpose: ${c.why}`);
      assert.equal(got, c.native ?? expectedLlhttp);
    });
  }
});
