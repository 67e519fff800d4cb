'use strict';
// The load generators: wrk for HTTPS/1.1 and h2load for HTTP/2, each bounded
// by its duration, pinned to the client core, and reduced to one shape:
// { requests, reqPerSec, bytesPerSec, latencyMs: { p50, p90, p99, max }, errors: { total, ...detail } }
const fs = require('node:fs/promises');
const path = require('node:path');
const { runToCompletion } = require('../lib/process-group');
const { parseWrkOutput } = require('../lib/wrk-output');
const { parseH2loadOutput, parseH2loadLog } = require('../lib/h2load-output');

const WRK_ARGS = ['-t1', '-c100'];
const H2LOAD_ARGS = ['-c50', '-m10'];
// A client killed this long after its own duration counts as hung.
const HANG_MARGIN_MS = 8000;

async function runWrk({ url, acceptEncoding, durationS, pin }) {
  const [cmd, args] = pin('wrk', [...WRK_ARGS, `-d${durationS}s`, '--latency', '--timeout', '10s',
    '-H', `Accept-Encoding: ${acceptEncoding}`, url]);
  const { stdout } = await runToCompletion(cmd, args, { timeoutMs: durationS * 1000 + HANG_MARGIN_MS, name: 'wrk' });
  const r = parseWrkOutput(stdout);
  const { p50, p90, p99, max } = r.latencyMs;
  return { requests: r.requests, reqPerSec: r.reqPerSec, bytesPerSec: r.bytesPerSec, latencyMs: { p50, p90, p99, max }, errors: r.errors };
}

async function runH2load({ url, acceptEncoding, durationS, pin, tmpDir }) {
  const log = path.join(tmpDir, `h2load-${process.pid}-${Date.now()}.tsv`);
  try {
    const [cmd, args] = pin('h2load', [...H2LOAD_ARGS, '-D', String(durationS), `--log-file=${log}`,
      '-H', `accept-encoding: ${acceptEncoding}`, url]);
    const { stdout } = await runToCompletion(cmd, args, { timeoutMs: durationS * 1000 + HANG_MARGIN_MS, name: 'h2load' })
      .catch((err) => { throw explainH2loadHang(err); });
    const summary = parseH2loadOutput(stdout);
    if (summary.protocol !== 'h2') {
      throw Object.assign(new Error(`h2load negotiated ${summary.protocol}, not h2`), { code: 'ENOTH2' });
    }
    const { latencyMs } = await parseH2loadLog(log);
    const { p50, p90, p99, max } = latencyMs;
    return { requests: summary.requests, reqPerSec: summary.reqPerSec, bytesPerSec: summary.bytesPerSec, latencyMs: { p50, p90, p99, max }, errors: summary.errors };
  } finally {
    await fs.rm(log, { force: true });
  }
}

// h2load prints its summary only when every connection has closed. When it
// has stopped its clients but a server keeps connections open, the run's
// figures are lost: say so precisely, since it is the server's doing.
function explainH2loadHang(err) {
  if (err.code !== 'ECHILDHUNG' || !/Stopped all clients/.test(err.stdout || '')) return err;
  return Object.assign(new Error('h2load stopped its clients (GOAWAY) but the server did not close its HTTP/2 '
    + `connections within ${HANG_MARGIN_MS} ms, so h2load printed no results`), { code: 'EH2LOADHANG' });
}

const CLIENTS = { h1: runWrk, h2: runH2load };

function runLoad(protocol, options) {
  return CLIENTS[protocol](options);
}

const clientSettings = () => ({ wrk: WRK_ARGS.join(' '), h2load: H2LOAD_ARGS.join(' ') });

module.exports = { runLoad, clientSettings };
