'use strict';
// HTTP/3 load for bench:h3: LOADS[load].h3.processes copies of bench/h3/load.py (aioquic, one
// connection each, `concurrency` requests in flight), all on the load core, for durationS, reduced
// to the shape of bench/server/load-clients.js's results:
// { requests, reqPerSec, bytesPerSec, latencyMs: { mean, p50, p90, p99, max }, errors: { total, ... },
//   samples: { path: { status, encoding, body } } (each path's first response, body still encoded) }
const path = require('node:path');
const { runToCompletion } = require('../lib/process-group');
const { percentileOfSorted } = require('../lib/stats');
const { LOADS } = require('../server/plan');

const CLIENT = path.join(__dirname, 'load.py');
// Python's start and the QUIC handshake come before the measured period, the last responses after.
const START_AND_HANG_MARGIN_MS = 15000;

// Pure: the clients' JSON outputs merged. Each client counts its own period from its first
// request; the period of the whole is the longest of them.
function mergeClientOutputs(outputs) {
  const latencies = Float64Array.from(outputs.flatMap((o) => o.latenciesUs)).sort();
  const elapsedS = Math.max(...outputs.map((o) => o.elapsedS));
  const requests = outputs.reduce((n, o) => n + o.requests, 0);
  const bodyBytes = outputs.reduce((n, o) => n + o.bodyBytes, 0);
  const errors = {};
  for (const o of outputs) for (const [k, v] of Object.entries(o.errors)) errors[k] = (errors[k] ?? 0) + v;
  const ms = (p) => (latencies.length ? percentileOfSorted(latencies, p) / 1000 : null);
  const samples = {};
  for (const o of outputs) {
    for (const [p, s] of Object.entries(o.samples)) {
      samples[p] ??= { status: s.status, encoding: s.contentEncoding, body: Buffer.from(s.body, 'base64') };
    }
  }
  return {
    requests,
    reqPerSec: elapsedS > 0 ? requests / elapsedS : 0,
    bytesPerSec: elapsedS > 0 ? bodyBytes / elapsedS : 0,
    latencyMs: {
      mean: latencies.length ? latencies.reduce((a, b) => a + b, 0) / latencies.length / 1000 : null,
      p50: ms(50), p90: ms(90), p99: ms(99), max: ms(100),
    },
    errors,
    samples,
  };
}

// urls: the row's files on the server (https://127.0.0.1:PORT/...); expect: path -> coding;
// ca: the certificate file the clients verify the server against; serverName: the name in it.
async function runH3Load({ urls, acceptEncoding, expect, load, durationS, pin, ca, serverName }) {
  const { port } = new URL(urls[0]);
  const { processes, concurrency } = LOADS[load].h3;
  const config = JSON.stringify({ paths: urls.map((u) => new URL(u).pathname), acceptEncoding, expect, durationS, concurrency });
  const runs = Array.from({ length: processes }, () => {
    const [cmd, args] = pin('python3', [CLIENT, port, ca, serverName, config]);
    return runToCompletion(cmd, args, { timeoutMs: durationS * 1000 + START_AND_HANG_MARGIN_MS, name: 'bench/h3/load.py' });
  });
  const outputs = (await Promise.all(runs)).map(({ stdout }) => JSON.parse(stdout));
  return mergeClientOutputs(outputs);
}

module.exports = { runH3Load, mergeClientOutputs };
