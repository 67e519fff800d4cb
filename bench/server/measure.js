'use strict';
// One run of one row: a freshly started server, optional warm-up, the
// measured load, a sample response checked against the source bytes, and the
// server's memory and CPU over the run.
const { ProcessGroupSampler } = require('../lib/proc-sampler');
const { fetchSample } = require('../lib/fetch-sample');
const { decodeBody } = require('../lib/decode-body');
const { startProjectServer } = require('./project-server');
const { startNginx } = require('./nginx');
const { startH2o } = require('./h2o');
const { acceptEncodings } = require('./accept-encodings');
const { runLoad } = require('./load-clients');
const { variantSize } = require('./corpus');
const { SERVERS, MODES } = require('./plan');

const SERVER_CORE = 0;
const CLIENT_CORE = 1;

const STARTERS = {
  nginx: (spec, common, ctx) => startNginx({ ...common, openFileCache: Boolean(spec.openFileCache), tmpDir: ctx.tmpDir }),
  h2o: (spec, common, ctx) => startH2o({ ...common, tmpDir: ctx.tmpDir }),
  project: (spec, common, ctx) => startProjectServer({
    ...common, serverDir: ctx.serverDir, brotliEngine: spec.brotliEngine, engine: spec.engine, caps: ctx.caps,
  }),
};

function startServer(row, ctx) {
  const spec = SERVERS[row.server];
  const root = ctx.corpus.roots[MODES[row.mode].root];
  const pin = (cmd, args) => ctx.pinning.wrap(SERVER_CORE, cmd, args);
  return STARTERS[spec.impl](spec, { root, workers: spec.workers, cert: ctx.tls.cert, key: ctx.tls.key, pin }, ctx);
}

// What the response to each of the row's Accept-Encoding headers should be:
// the row's coding, except for files that are not worth compressing;
// precompressed rows must send the variant itself. The first problem wins.
async function checkSample(row, ctx, url) {
  const file = ctx.corpus.files[row.file];
  const expected = file.compressible ? row.coding : 'identity';
  let sample;
  for (const { client, header } of acceptEncodings(row.coding)) {
    const res = await fetchSample(url + file.name, { protocol: row.protocol, acceptEncoding: header });
    const encoding = res.headers['content-encoding'] || 'identity';
    sample = { status: Number(res.status), contentEncoding: encoding, bytes: res.body.length, ok: false, problem: null };
    if (sample.status !== 200) sample.problem = `status ${sample.status}`;
    else if (encoding !== expected) sample.problem = `content-encoding ${encoding}, expected ${expected}`;
    else if (!(await decodeBody(encoding, res.body)).equals(file.bytes)) sample.problem = 'decoded body differs from the source file';
    else if (row.mode === 'static' && expected !== 'identity') {
      const size = await variantSize(ctx.corpus.roots.variants, file.name, expected);
      if (size !== res.body.length) sample.problem = `body is ${res.body.length} B but the precompressed variant is ${size} B`;
    }
    if (sample.problem) {
      sample.problem = `${client} (Accept-Encoding: ${header ?? 'none'}): ${sample.problem}`;
      return sample;
    }
  }
  sample.ok = true;
  return sample;
}

// h2load 1.52 now and then never exits after its duration against our
// server (either engine) and against a bare http2.createSecureServer, never
// against nginx or h2o here: some connections keep exchanging requests and
// responses after "Stopped all clients", and the run's figures are lost. The measured
// period is then run again on the same server, at most this many times, and
// the run records how often.
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
      url: server.url + ctx.corpus.files[row.file].name, headers: acceptEncodings(row.coding), load: row.load || 'many', pin: clientPin, tmpDir: ctx.tmpDir,
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

module.exports = { measureRun, SERVER_CORE, CLIENT_CORE };
