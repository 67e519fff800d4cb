'use strict';
// Parses h2load's summary and its --log-file. The summary has no latency
// percentiles, so those come from the per-request log (one line per finished
// request of the measured period: start µs, status, elapsed µs).
const fs = require('node:fs');
const readline = require('node:readline');
const { parseDurationMs, parseBytes } = require('./units');
const { percentileOfSorted } = require('./stats');

function match(text, re, what) {
  const m = re.exec(text);
  if (!m) throw Object.assign(new Error(`h2load output has no ${what}`), { code: 'EH2LOADPARSE' });
  return m;
}

function parseH2loadOutput(text) {
  const fin = match(text, /^finished in ([\d.]+\w+), ([\d.]+) req\/s, (\S+)\/s/m, '"finished in" line');
  const req = match(text,
    /^requests: (\d+) total, (\d+) started, (\d+) done, (\d+) succeeded, (\d+) failed, (\d+) errored, (\d+) timeout/m,
    '"requests:" line');
  const codes = match(text, /^status codes: (\d+) 2xx, (\d+) 3xx, (\d+) 4xx, (\d+) 5xx/m, '"status codes:" line');
  const time = match(text, /^time for request:\s+(\S+)\s+(\S+)\s+(\S+)/m, '"time for request:" line');
  // Octets of HEADERS payloads received (the HPACK blocks), and their saving over the fields' text.
  const traffic = match(text, /^traffic: .*? \((\d+)\) total, .*? \((\d+)\) headers \(space savings ([\d.]+)%\)/m, '"traffic:" line');
  const protocol = /^Application protocol: (\S+)/m.exec(text);
  // "failed" already includes errored and timed-out requests and non-2xx/3xx answers.
  const errors = {
    failed: Number(req[5]),
    errored: Number(req[6]),
    timeout: Number(req[7]),
    non2xx: Number(codes[3]) + Number(codes[4]),
  };
  return {
    protocol: protocol ? protocol[1] : null,
    requests: Number(req[3]),
    durationS: parseDurationMs(fin[1]) / 1000,
    reqPerSec: Number(fin[2]),
    bytesPerSec: parseBytes(fin[3]),
    latencyMs: { min: parseDurationMs(time[1]), max: parseDurationMs(time[2]), mean: parseDurationMs(time[3]) },
    headerBytes: Number(traffic[2]),
    headerSavings: Number(traffic[3]) / 100,
    errors: { ...errors, total: errors.failed },
  };
}

// Latency percentiles (ms) and status counts from an h2load --log-file.
async function parseH2loadLog(file) {
  const elapsedUs = [];
  let non2xx = 0;
  const lines = readline.createInterface({ input: fs.createReadStream(file), crlfDelay: Infinity });
  for await (const line of lines) {
    if (!line) continue;
    const [, status, elapsed] = line.split('\t');
    elapsedUs.push(Number(elapsed));
    if (!status.startsWith('2')) non2xx++;
  }
  const ascending = Float64Array.from(elapsedUs).sort();
  const ms = (p) => {
    const us = percentileOfSorted(ascending, p);
    return us === null ? null : us / 1000;
  };
  return { count: ascending.length, non2xx, latencyMs: { p50: ms(50), p75: ms(75), p90: ms(90), p99: ms(99), max: ms(100) } };
}

module.exports = { parseH2loadOutput, parseH2loadLog };
