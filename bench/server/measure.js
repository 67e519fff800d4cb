'use strict';
// One run of one row: a freshly started server, optional warm-up, the
// measured load, sample responses (each file, each Accept-Encoding header)
// checked against the source bytes, and the server's memory and CPU.
const { ProcessGroupSampler } = require('../lib/proc-sampler');
const { fetchSample } = require('../lib/fetch-sample');
const { decodeBody } = require('../lib/decode-body');
const { startProjectServer } = require('./project-server');
const { startNginx } = require('./nginx');
const { startH2o } = require('./h2o');
const { startFloor } = require('./floor-server');
const { acceptEncodings } = require('./accept-encodings');
const { runLoad } = require('./load-clients');
const { variantSize, filesOf } = require('./corpus');
const { SERVERS, MODES } = require('./plan');

const SERVER_CORE = 0;
const CLIENT_CORE = 1;

const STARTERS = {
  nginx: (spec, common, ctx) => startNginx({ ...common, openFileCache: Boolean(spec.openFileCache), tmpDir: ctx.tmpDir }),
  h2o: (spec, common, ctx) => startH2o({ ...common, tmpDir: ctx.tmpDir }),
  floor: (spec, common, ctx) => startFloor({ ...common, script: spec.script, tmpDir: ctx.tmpDir }),
  project: (spec, common, ctx) => startProjectServer({
    ...common, serverDir: ctx.serverDir, brotliEngine: spec.brotliEngine, engine: spec.engine, transport: spec.transport, caps: ctx.caps,
  }),
};

function startServer(row, ctx) {
  const spec = SERVERS[row.server];
  const root = ctx.corpus.roots[MODES[row.mode].root];
  const pin = (cmd, args) => ctx.pinning.wrap(SERVER_CORE, cmd, args);
  return STARTERS[spec.impl](spec, { root, workers: spec.workers, cert: ctx.tls.cert, key: ctx.tls.key, pin }, ctx);
}

// Why one response to a file is not what the row expects ({ status, encoding, body } with the body
// still encoded), or null: status 200, the expected coding, decoding to the source file, and on
// precompressed rows the variant itself. HTTP/3 samples (bench/h3/) are checked by it too.
async function responseProblem(res, file, expected, mode, ctx) {
  if (Number(res.status) !== 200) return `status ${res.status}`;
  if (res.encoding !== expected) return `content-encoding ${res.encoding}, expected ${expected}`;
  if (!(await decodeBody(res.encoding, res.body)).equals(file.bytes)) return 'decoded body differs from the source file';
  if (mode === 'static' && expected !== 'identity') {
    const size = await variantSize(ctx.corpus.roots.variants, file.name, expected);
    if (size !== res.body.length) return `body is ${res.body.length} B but the precompressed variant is ${size} B`;
  }
  return null;
}

// What the response for each of the row's files to each of its
// Accept-Encoding headers should be: the row's coding, except for files that
// are not worth compressing; precompressed rows must send the variant itself.
// The first problem wins; bytes add up the row's files for one header.
async function checkSample(row, ctx, url) {
  const files = filesOf(row.file).map((k) => ctx.corpus.files[k]);
  const sample = { status: null, contentEncoding: null, bytes: 0, ok: false, problem: null };
  for (const [i, { client, header }] of acceptEncodings(row.coding).entries()) {
    for (const file of files) {
      const expected = file.compressible ? row.coding : 'identity';
      const res = await fetchSample(url + file.name, { protocol: row.protocol, acceptEncoding: header });
      const encoding = res.headers['content-encoding'] || 'identity';
      sample.status ??= Number(res.status);
      sample.contentEncoding ??= encoding;
      if (i === 0) sample.bytes += res.body.length;
      const problem = await responseProblem({ status: res.status, encoding, body: res.body }, file, expected, row.mode, ctx);
      if (problem) {
        sample.problem = `${file.name}, ${client} (Accept-Encoding: ${header ?? 'none'}): ${problem}`;
        return sample;
      }
    }
  }
  sample.ok = true;
  return sample;
}

// h2load 1.52 never exits when a connection finishes its TLS handshake after
// the measured period has ended: that client starts sending requests and is
// never stopped (a Go server that delays handshakes by up to 1.5 s hangs it
// every time; Go, nginx and h2o with prompt handshakes never did). Node's
// handshakes on a busy server core are slow enough to hit it now and then,
// and the run's figures are lost. The measured period is then run again on
// the same server, at most this many times, and the run records how often.
const MAX_HANG_RETRIES = 2;

async function measureRun(row, ctx) {
  const server = await startServer(row, ctx);
  const sampler = new ProcessGroupSampler(server.pgid).start();
  let result;
  let cpuSeconds;
  let sample;
  let usage;
  let hangs = 0;
  try {
    const clientPin = (cmd, args) => ctx.pinning.wrap(CLIENT_CORE, cmd, args);
    const load = {
      urls: filesOf(row.file).map((k) => server.url + ctx.corpus.files[k].name),
      headers: acceptEncodings(row.coding),
      load: row.load,
      pin: clientPin,
      tmpDir: ctx.tmpDir,
    };
    // A warm-up whose client hung at the end still warmed the server up.
    if (MODES[row.mode].warmUp && ctx.warmUpS > 0) {
      await runLoad(row.protocol, { ...load, durationS: ctx.warmUpS }).catch((err) => {
        if (err.code !== 'EH2LOADHANG') throw err;
      });
    }
    for (;;) {
      const before = await sampler.snapshot();
      try {
        result = await runLoad(row.protocol, { ...load, durationS: ctx.durationS });
        cpuSeconds = (await sampler.snapshot()).cpuSeconds - before.cpuSeconds;
        break;
      } catch (err) {
        if (err.code !== 'EH2LOADHANG' || hangs >= MAX_HANG_RETRIES) throw err;
        hangs++;
      }
    }
    // After the load, so that cold rows really start cold.
    sample = await checkSample(row, ctx, server.url);
  } finally {
    // Read while the server is alive: VmHWM disappears with the process.
    usage = await sampler.stop();
    await server.stop();
  }
  return {
    ...result,
    cpuSeconds,
    h2loadHangs: hangs,
    cpuUsPerRequest: result.requests > 0 ? (cpuSeconds * 1e6) / result.requests : null,
    peakRssBytes: usage.peakRssBytes,
    peakConcurrentRssBytes: usage.peakConcurrentRssBytes,
    processes: usage.processes,
    sample,
  };
}

module.exports = { measureRun, startServer, checkSample, responseProblem, SERVER_CORE, CLIENT_CORE };
