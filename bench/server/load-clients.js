'use strict';
// The load generators: wrk for HTTPS/1.1 and h2load for HTTP/2, each bounded
// by its duration, pinned to the client core, and reduced to one shape:
// { requests, reqPerSec, bytesPerSec, latencyMs: { mean?, p50, p90, p99, max }, errors: { total, ...detail },
//   headerBytesPerResponse (h2load only: HPACK block octets per response) }
// wrk runs bench/wrk/rotate.lua, which rotates the row's Accept-Encoding
// headers and paths and writes its results as JSON; h2load takes the paths in
// turn but cannot vary headers, so it sends the first of them.
const fs = require('node:fs/promises');
const path = require('node:path');
const { runToCompletion } = require('../lib/process-group');
const { parseWrkReport } = require('../lib/wrk-report');
const { parseH2loadOutput, parseH2loadLog } = require('../lib/h2load-output');
const { LOADS } = require('./plan');

const WRK_SCRIPT = path.resolve(__dirname, '..', 'wrk', 'rotate.lua');
// A client killed this long after its own duration counts as hung.
const HANG_MARGIN_MS = 5000;

const tempFile = (tmpDir, name, ext) => path.join(tmpDir, `${name}-${process.pid}-${Date.now()}.${ext}`);

// urls: the row's files on one server, requested in turn; headers:
// [{ header }] from acceptEncodings(), null header = none sent.
async function runWrk({ urls, headers, load, durationS, pin, tmpDir }) {
  const report = tempFile(tmpDir, 'wrk', 'json');
  const { origin } = new URL(urls[0]);
  try {
    const [cmd, args] = pin('wrk', [...LOADS[load].h1, `-d${durationS}s`, '--timeout', '10s', '-s', WRK_SCRIPT, `${origin}/`]);
    const env = {
      ...process.env,
      WRK_PATHS: urls.map((u) => new URL(u).pathname).join('|'),
      WRK_ACCEPT_ENCODINGS: headers.map((h) => h.header ?? '-').join('|'),
      WRK_REPORT: report,
    };
    await runToCompletion(cmd, args, { timeoutMs: durationS * 1000 + HANG_MARGIN_MS, name: 'wrk', env });
    const r = parseWrkReport(await fs.readFile(report, 'utf8').catch(() => {
      throw Object.assign(new Error(`wrk wrote no report (${WRK_SCRIPT} done() did not run)`), { code: 'EWRKREPORT' });
    }));
    return { requests: r.requests, reqPerSec: r.reqPerSec, bytesPerSec: r.bytesPerSec, latencyMs: r.latencyMs, errors: r.errors };
  } finally {
    await fs.rm(report, { force: true });
  }
}

// clientArgs: h2load's connection settings in place of LOADS[load].h2 (bench:h3 paces HTTP/2 to
// the rate its HTTP/3 clients reached, with --rps).
async function runH2load({ urls, headers, load, clientArgs = LOADS[load].h2, durationS, pin, tmpDir }) {
  const log = tempFile(tmpDir, 'h2load', 'tsv');
  const { header } = headers[0];
  try {
    const [cmd, args] = pin('h2load', [...clientArgs, '-D', String(durationS), `--log-file=${log}`,
      ...(header === null ? [] : ['-H', `accept-encoding: ${header}`]), ...urls]);
    const { stdout } = await runToCompletion(cmd, args, { timeoutMs: durationS * 1000 + HANG_MARGIN_MS, name: 'h2load' })
      .catch((err) => { throw explainH2loadHang(err); });
    const summary = parseH2loadOutput(stdout);
    if (summary.protocol !== 'h2') {
      throw Object.assign(new Error(`h2load negotiated ${summary.protocol}, not h2`), { code: 'ENOTH2' });
    }
    const { latencyMs } = await parseH2loadLog(log);
    const { p50, p90, p99, max } = latencyMs;
    return {
      requests: summary.requests, reqPerSec: summary.reqPerSec, bytesPerSec: summary.bytesPerSec,
      latencyMs: { mean: summary.latencyMs.mean, p50, p90, p99, max }, errors: summary.errors,
      headerBytesPerResponse: summary.requests > 0 ? summary.headerBytes / summary.requests : null,
    };
  } finally {
    await fs.rm(log, { force: true });
  }
}

// h2load prints its summary only when every connection has closed. When it
// has stopped its clients but connections stay open, the run's figures are
// lost: say so precisely (measure.js runs the period again).
function explainH2loadHang(err) {
  if (err.code !== 'ECHILDHUNG' || !/Stopped all clients/.test(err.stdout || '')) return err;
  return Object.assign(new Error('h2load stopped its clients but HTTP/2 connections were still open '
    + `${HANG_MARGIN_MS} ms later, so h2load printed no results`), { code: 'EH2LOADHANG' });
}

const CLIENTS = { h1: runWrk, h2: runH2load };

function runLoad(protocol, options) {
  return CLIENTS[protocol](options);
}

// For the report: the client settings of each load.
const clientSettings = () => Object.fromEntries(Object.entries(LOADS)
  .map(([name, l]) => [name, { wrk: l.h1.join(' '), h2load: l.h2.join(' ') }]));

module.exports = { runLoad, clientSettings, WRK_SCRIPT };
