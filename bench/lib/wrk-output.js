'use strict';
// Parses the report wrk prints with --latency. Numbers come back in plain units:
// milliseconds for latency, bytes for transfer.
const { parseDurationMs, parseBytes } = require('./units');

function match(text, re, what) {
  const m = re.exec(text);
  if (!m) throw Object.assign(new Error(`wrk output has no ${what}`), { code: 'EWRKPARSE' });
  return m;
}

function parseWrkOutput(text) {
  const latencyLine = match(text, /^\s*Latency\s+(\S+)\s+(\S+)\s+(\S+)/m, 'latency line');
  const percentile = (p) => {
    const m = new RegExp(`^\\s*${p}%\\s+(\\S+)`, 'm').exec(text);
    return m ? parseDurationMs(m[1]) : null;
  };
  const totals = match(text, /^\s*(\d+) requests in ([\d.]+\w+), ([\d.]+\w+) read/m, 'request totals');
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(text);
  const non2xx = /Non-2xx or 3xx responses: (\d+)/.exec(text);
  const errors = {
    connect: socket ? Number(socket[1]) : 0,
    read: socket ? Number(socket[2]) : 0,
    write: socket ? Number(socket[3]) : 0,
    timeout: socket ? Number(socket[4]) : 0,
    non2xx: non2xx ? Number(non2xx[1]) : 0,
  };
  return {
    requests: Number(totals[1]),
    durationS: parseDurationMs(totals[2]) / 1000,
    bytesRead: parseBytes(totals[3]),
    reqPerSec: Number(match(text, /^Requests\/sec:\s+([\d.]+)/m, 'Requests/sec')[1]),
    bytesPerSec: parseBytes(match(text, /^Transfer\/sec:\s+(\S+)/m, 'Transfer/sec')[1]),
    latencyMs: {
      mean: parseDurationMs(latencyLine[1]),
      max: parseDurationMs(latencyLine[3]),
      p50: percentile(50),
      p75: percentile(75),
      p90: percentile(90),
      p99: percentile(99),
    },
    errors: { ...errors, total: Object.values(errors).reduce((a, b) => a + b, 0) },
  };
}

module.exports = { parseWrkOutput };
