'use strict';
// CPU per request under a fixed load: each server gets the same number of HTTPS/1.1 requests
// (h2load --h1; with --protocol h2, HTTP/2 with 10 streams in flight per connection), a fixed
// count rather than a duration, so a server's speed does not change how
// much work it is measured over) and its CPU time (utime+stime of its process group) over them
// is divided by the requests done. Servers are interleaved round by round, so disturbances from
// other work on the machine spread over all of them. Server on CPU 0, h2load on CPU 1.
//   node bench/server/fixed-load.js [--servers ours-native,floor-tls,floor-native-tls,nginx-ofc] [--requests 100000]
//     [--connections 100] [--rounds 3] [--file html] [--protocol h1|h2] [--server-dir DIR]
// A server may be given as NAME@DIR: ours from another checkout's server/ folder (a baseline).
// NODE_OPTIONS reaches the Node servers: NODE_OPTIONS='--cpu-prof --cpu-prof-dir=DIR' profiles
// them (and this script) over the whole run.
const fs = require('node:fs/promises');
const os = require('node:os');
const path = require('node:path');
const { parseArgs } = require('node:util');
const { buildCorpus, filesOf } = require('./corpus');
const { startServer, SERVER_CORE, CLIENT_CORE } = require('./measure');
const { serverCapabilities } = require('./capabilities');
const { acceptEncodings } = require('./accept-encodings');
const { SERVERS } = require('./plan');
const { ProcessGroupSampler } = require('../lib/proc-sampler');
const { createPinning } = require('../lib/pinning');
const { writeSelfSignedCert } = require('../lib/tls-cert');
const { parseH2loadOutput } = require('../lib/h2load-output');
const { median } = require('../lib/stats');
const { installCleanupHandlers, registerTempDir, removeTempDir, runToCompletion } = require('../lib/process-group');

const PRECOMPRESS = path.resolve(__dirname, '..', '..', 'tools', 'precompress');
// Requests before the measured ones, so JIT warm-up and first-time caches are not counted.
const WARM_UP_SHARE = 0.2;

const OPTIONS = {
  servers: { type: 'string', default: 'ours-native,floor-tls,floor-native-tls,nginx-ofc' },
  requests: { type: 'string', default: '100000' },
  connections: { type: 'string', default: '100' },
  rounds: { type: 'string', default: '3' },
  file: { type: 'string', default: 'html' },
  protocol: { type: 'string', default: 'h1' },
  'server-dir': { type: 'string', default: path.resolve(__dirname, '..', '..', 'server') },
};

const PROTOCOL_ARGS = { h1: ['--h1'], h2: ['-m10'] };

async function h2load(url, { requests, connections, protocol }, header, pin) {
  const [cmd, args] = pin('h2load', [...PROTOCOL_ARGS[protocol], '-t1', `-c${connections}`, `-n${requests}`, '-H', `accept-encoding: ${header}`, url]);
  const { stdout } = await runToCompletion(cmd, args, { timeoutMs: 120000, name: 'h2load' });
  const summary = parseH2loadOutput(stdout);
  if (summary.errors.total > 0) throw new Error(`h2load: ${summary.errors.total} failed requests against ${url}`);
  return summary;
}

async function measure(spec, ctx, opts) {
  const [server, serverDir = ctx.serverDir] = spec.split('@');
  const row = { server, mode: 'static' };
  const started = await startServer(row, { ...ctx, serverDir });
  const sampler = new ProcessGroupSampler(started.pgid);
  const clientPin = (cmd, args) => ctx.pinning.wrap(CLIENT_CORE, cmd, args);
  const url = started.url + ctx.corpus.files[filesOf(opts.file)[0]].name;
  const { header } = acceptEncodings('br')[0];
  try {
    await h2load(url, { ...opts, requests: Math.round(opts.requests * WARM_UP_SHARE) }, header, clientPin);
    const before = await sampler.snapshot();
    const result = await h2load(url, opts, header, clientPin);
    const cpuSeconds = (await sampler.snapshot()).cpuSeconds - before.cpuSeconds;
    return { cpuUsPerRequest: (cpuSeconds * 1e6) / result.requests, reqPerSec: result.reqPerSec };
  } finally {
    await started.stop();
  }
}

async function main() {
  const { values } = parseArgs({ options: OPTIONS });
  const opts = {
    servers: values.servers.split(','), requests: Number(values.requests), connections: Number(values.connections),
    rounds: Number(values.rounds), file: values.file, protocol: values.protocol, serverDir: values['server-dir'],
  };
  if (!PROTOCOL_ARGS[opts.protocol]) throw new Error(`--protocol must be h1 or h2, got ${opts.protocol}`);
  for (const s of opts.servers.map((spec) => spec.split('@')[0])) if (!SERVERS[s]) throw new Error(`unknown server ${s}; one of ${Object.keys(SERVERS).join(', ')}`);
  installCleanupHandlers();
  const tmpDir = registerTempDir(await fs.mkdtemp(path.join(os.tmpdir(), 'bench-fixed-')));
  const pinning = createPinning();
  console.log(pinning.enabled ? `servers on CPU ${SERVER_CORE}, h2load on CPU ${CLIENT_CORE}` : `pinning off: ${pinning.reason}`);
  const precompress = (dir) => runToCompletion(process.execPath, [PRECOMPRESS, dir, '--quiet'], { timeoutMs: 300000, name: 'precompress' });
  const ctx = {
    tmpDir, pinning, tls: await writeSelfSignedCert(tmpDir), corpus: await buildCorpus(tmpDir, { precompress }),
    serverDir: opts.serverDir, caps: await serverCapabilities(opts.serverDir),
  };
  const results = new Map(opts.servers.map((s) => [s, []]));
  for (let round = 1; round <= opts.rounds; round++) {
    for (const server of opts.servers) {
      const r = await measure(server, ctx, opts);
      results.get(server).push(r.cpuUsPerRequest);
      console.log(`round ${round} ${server}: ${r.cpuUsPerRequest.toFixed(1)} CPU µs/request, ${Math.round(r.reqPerSec)} req/s`);
    }
  }
  console.log(`median of ${opts.rounds} rounds, ${opts.requests} requests each (${os.loadavg()[0].toFixed(1)} load average):`);
  for (const [server, us] of results) console.log(`  ${server.padEnd(16)} ${median(us).toFixed(1)} µs/request  (${us.map((u) => u.toFixed(1)).join(', ')})`);
  await removeTempDir(tmpDir);
}

main().catch((err) => {
  console.error(`fixed-load: ${err.message}`);
  process.exit(1);
});
