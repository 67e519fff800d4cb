'use strict';
// npm run bench:h3: HTTP/3 beside HTTP/2 on ONE process of our server (pinned to CPU 0, the
// load on CPU 1), the same precompressed files with br: server CPU µs per request, req/s,
// latency as the client sees it, and header bytes per response (h2load's HPACK count against
// what the server's QPACK encoder wrote, HEADERS payloads plus encoder-stream octets, read
// from its --metrics counters). h2load for HTTP/2 as in `npm run bench`; for HTTP/3 aioquic
// processes (bench/h3/load.py, which says why). A separate benchmark rather than
// rows of bench:server, which starts a server per row. Writes the "h3" section of
// bench/results/<date>-<host>.json and regenerates bench/results/README.md. See --help.
const fs = require('node:fs/promises');
const os = require('node:os');
const path = require('node:path');
const { buildCorpus, filesOf } = require('../server/corpus');
const { startProjectServer } = require('../server/project-server');
const { checkSample, responseProblem, SERVER_CORE, CLIENT_CORE } = require('../server/measure');
const { runLoad } = require('../server/load-clients');
const { acceptEncodings } = require('../server/accept-encodings');
const { summarizeRuns } = require('../server/summarize');
const { LOADS } = require('../server/plan');
const { runH3Load } = require('./h3-load');
const { readQpackCounters } = require('./metrics-scrape');
const { parseCommandLine, wholeNumber } = require('../lib/command-line');
const { createPinning } = require('../lib/pinning');
const { writeSelfSignedCert } = require('../lib/tls-cert');
const { freePort } = require('../lib/free-port');
const { findOnPath } = require('../lib/find-on-path');
const { summarize } = require('../lib/stats');
const { ProcessGroupSampler } = require('../lib/proc-sampler');
const { machineInfo, toolVersion, commandLine } = require('../lib/machine-info');
const { saveSection } = require('../lib/results-store');
const { writeReadme } = require('../lib/results-readme');
const { installCleanupHandlers, registerTempDir, removeTempDir, runToCompletion } = require('../lib/process-group');
const { quicSupport, loadQuic } = require('../../server/engines/listen-h3');

const PRECOMPRESS = path.resolve(__dirname, '..', '..', 'tools', 'precompress');
const CODING = 'br';
// The files of the server benchmark's headline rows, loaded, and the small page one request
// at a time for unloaded latency.
const ROWS = [
  { file: 'html', load: 'many' }, { file: 'js', load: 'many' }, { file: 'page', load: 'many' }, { file: 'html', load: 'one' },
];
// h2paced: HTTP/2 with the HTTP/3 clients' connections and streams, held by h2load --rps to the
// rate they reached in the same repeat, so that CPU per request compares at one pace (aioquic
// cannot keep the server's core busy; a server that is idle between packets spends more per
// request). Loaded rows only.
const PROTOCOLS = { h2: 'HTTP/2 (h2load)', h3: 'HTTP/3 (aioquic)', h2paced: 'HTTP/2 at HTTP/3\'s pace (h2load --rps)' };
const protocolsOf = (row) => Object.keys(PROTOCOLS).filter((p) => p !== 'h2paced' || row.load === 'many');
// The name in bench/lib/tls-cert.js's certificate that the HTTP/3 clients verify.
const SERVER_NAME = 'localhost';

const PRESETS = {
  default: { durationS: 5, warmUpS: 1, repeat: 3, rows: ROWS },
  smoke: { durationS: 1, warmUpS: 0, repeat: 1, rows: ROWS.slice(0, 1) },
};

const USAGE = `usage: npm run bench:h3 -- [options]
  --smoke          the loaded index.html row only, 1 s, 1 run, no warm-up
  --duration S     measured whole seconds per run (default ${PRESETS.default.durationS})
  --warmup S       warm-up whole seconds before each measured run, 0 for none (default ${PRESETS.default.warmUpS})
  --repeat N       runs per row and protocol; medians and min-max are reported (default ${PRESETS.default.repeat})
  --results-dir D  where the JSON and README go (default: bench/results)
  --note TEXT      a remark printed with the results
Needs Node 22.20+ or 24 (the QUIC addon built), h2load, and python3 with aioquic.`;

function parseOptions(argv) {
  const values = parseCommandLine(argv, {
    smoke: { type: 'boolean' }, help: { type: 'boolean', short: 'h' }, duration: { type: 'string' }, warmup: { type: 'string' },
    repeat: { type: 'string' }, 'results-dir': { type: 'string' }, note: { type: 'string' },
  }, USAGE);
  if (values.help) return { help: USAGE };
  const preset = PRESETS[values.smoke ? 'smoke' : 'default'];
  return {
    rows: preset.rows,
    durationS: wholeNumber(values.duration ?? preset.durationS, 'duration', 1, USAGE),
    warmUpS: wholeNumber(values.warmup ?? preset.warmUpS, 'warmup', 0, USAGE),
    repeat: wholeNumber(values.repeat ?? preset.repeat, 'repeat', 1, USAGE),
    resultsDir: values['results-dir'] ? path.resolve(values['results-dir']) : undefined,
    note: values.note?.trim() || null,
  };
}

async function checkRequirements() {
  const problems = [];
  const quic = quicSupport(loadQuic());
  if (!quic.ok) problems.push(`HTTP/3 does not run under this Node: ${quic.reason}`);
  if (!(await findOnPath('h2load'))) problems.push('h2load is missing (Debian package nghttp2-client; bash scripts/system-deps.sh install)');
  if (!(await aioquicVersion())) problems.push('python3 with aioquic is missing (bash scripts/system-deps.sh install, or pip install aioquic)');
  return problems;
}

const aioquicVersion = () => toolVersion('python3', ['-c', 'import aioquic; print("aioquic", aioquic.__version__)'], /aioquic (\S+)/);

// The HTTP/3 sample of each file: the first response load.py kept for it.
async function h3Sample(row, result, ctx) {
  const sample = { status: null, contentEncoding: null, bytes: 0, ok: false, problem: null };
  for (const key of filesOf(row.file)) {
    const file = ctx.corpus.files[key];
    const res = result.samples[`/${file.name}`];
    if (!res) return { ...sample, problem: `${file.name}: no response over HTTP/3` };
    sample.status ??= res.status;
    sample.contentEncoding ??= res.encoding;
    sample.bytes += res.body.length;
    const problem = await responseProblem(res, file, file.compressible ? CODING : 'identity', 'static', ctx);
    if (problem) return { ...sample, problem: `${file.name} over HTTP/3: ${problem}` };
  }
  return { ...sample, ok: true };
}

// h2load settings for the paced variant: the HTTP/3 load's shape at h3ReqPerSec in all.
function pacedArgs(load, h3ReqPerSec) {
  const { processes, concurrency } = LOADS[load].h3;
  return [`-c${processes}`, `-m${concurrency}`, `--rps=${Math.max(1, Math.round(h3ReqPerSec / processes))}`];
}

// One measured run of a row over one protocol on the running server; h3ReqPerSec: the rate of
// this repeat's HTTP/3 run (for h2paced).
async function measure(row, protocol, ctx, h3ReqPerSec) {
  const urls = filesOf(row.file).map((k) => ctx.server.url + ctx.corpus.files[k].name);
  const [{ header }] = acceptEncodings(CODING);
  const pin = (cmd, args) => ctx.pinning.wrap(CLIENT_CORE, cmd, args);
  const expect = Object.fromEntries(filesOf(row.file).map((k) => [`/${ctx.corpus.files[k].name}`, ctx.corpus.files[k].compressible ? CODING : 'identity']));
  const clientArgs = protocol === 'h2paced' ? pacedArgs(row.load, h3ReqPerSec) : undefined;
  const load = protocol !== 'h3'
    ? (durationS) => runLoad('h2', { urls, headers: [{ header }], load: row.load, clientArgs, durationS, pin, tmpDir: ctx.tmpDir })
    : (durationS) => runH3Load({ urls, acceptEncoding: header, expect, load: row.load, durationS, pin, ca: ctx.tls.cert, serverName: SERVER_NAME });
  if (ctx.warmUpS > 0) await load(ctx.warmUpS);
  const countersBefore = await readQpackCounters(ctx.metricsUrl);
  const cpuBefore = (await ctx.sampler.snapshot()).cpuSeconds;
  const startedAt = performance.now();
  const result = await load(ctx.durationS);
  const wallS = (performance.now() - startedAt) / 1000;
  const cpuSeconds = (await ctx.sampler.snapshot()).cpuSeconds - cpuBefore;
  const counters = (await readQpackCounters(ctx.metricsUrl)).minus(countersBefore);
  const sample = protocol !== 'h3'
    ? await checkSample({ protocol: 'h2', file: row.file, coding: CODING, mode: 'static' }, ctx, ctx.server.url)
    : await h3Sample(row, result, ctx);
  const { samples, ...figures } = result;
  return {
    ...figures,
    ...(protocol === 'h3' ? {
      headerBytesPerResponse: counters.perResponse(counters.sectionBytes + counters.encoderBytes),
      sectionBytesPerResponse: counters.perResponse(counters.sectionBytes),
      encoderBytesPerResponse: counters.perResponse(counters.encoderBytes),
    } : {}),
    cpuSeconds,
    // Whether the server's core was the bottleneck: near 1 it was, well under 1 the client was.
    serverCpuShare: cpuSeconds / wallS,
    cpuUsPerRequest: result.requests > 0 ? (cpuSeconds * 1e6) / result.requests : null,
    peakRssBytes: null, // one server for every row: its peak is the section's
    sample,
  };
}

const rowId = (row, protocol) => `${protocol}/${row.file}/${row.load}`;

function runLine(run) {
  if (run.error) return `FAILED: ${run.error}`;
  return `${Math.round(run.reqPerSec)} req/s, ${run.cpuUsPerRequest?.toFixed(0)} CPU µs/req (server core ${(run.serverCpuShare * 100).toFixed(0)}% busy), `
    + `p50 ${run.latencyMs.p50?.toFixed(2)} ms, p99 ${run.latencyMs.p99?.toFixed(2)} ms, ${run.errors.total} errors, `
    + `${run.headerBytesPerResponse?.toFixed(1)} header B/response, body ${run.sample.ok ? 'ok' : run.sample.problem}`;
}

async function main() {
  const opts = parseOptions(process.argv.slice(2));
  if (opts.help) return console.log(opts.help);
  const problems = await checkRequirements();
  if (problems.length) throw Object.assign(new Error(`cannot run:\n  ${problems.join('\n  ')}`), { code: 'EREQUIREMENTS' });

  installCleanupHandlers();
  const tmpDir = registerTempDir(await fs.mkdtemp(path.join(os.tmpdir(), 'bench-h3-')));
  const pinning = createPinning();
  console.log(pinning.enabled ? `pinning: server on CPU ${SERVER_CORE}, load generators on CPU ${CLIENT_CORE}` : `pinning off: ${pinning.reason}`);
  const startedAt = new Date();
  const loadAverageAtStart = os.loadavg();
  const tls = await writeSelfSignedCert(tmpDir);
  const precompress = (dir) => runToCompletion(process.execPath, [PRECOMPRESS, dir, '--quiet'], { timeoutMs: 300000, name: 'precompress' });
  const corpus = await buildCorpus(tmpDir, { precompress });
  const metrics = `127.0.0.1:${await freePort()}`;
  const server = await startProjectServer({
    pin: (cmd, args) => pinning.wrap(SERVER_CORE, cmd, args),
    serverDir: path.resolve(__dirname, '..', '..', 'server'), root: corpus.roots.variants, workers: 1, cert: tls.cert, key: tls.key, metrics,
  });
  const sampler = new ProcessGroupSampler(server.pgid).start();
  const ctx = { ...opts, tmpDir, pinning, tls, corpus, server, sampler, metricsUrl: `http://${metrics}/metrics` };

  const runs = new Map();
  let usage;
  try {
    const total = opts.rows.reduce((n, row) => n + protocolsOf(row).length, 0) * opts.repeat;
    let done = 0;
    for (let rep = 1; rep <= opts.repeat; rep++) {
      // Which protocol goes first alternates, so neither always meets the other's leftovers.
      // The paced run follows the HTTP/3 run whose rate it takes.
      const order = rep % 2 ? ['h2', 'h3', 'h2paced'] : ['h3', 'h2', 'h2paced'];
      for (const row of opts.rows) {
        const ran = {};
        for (const protocol of order.filter((p) => protocolsOf(row).includes(p))) {
          const id = rowId(row, protocol);
          process.stdout.write(`[${++done}/${total}] ${PROTOCOLS[protocol]} ${row.file} br ${LOADS[row.load].label} run ${rep}: `);
          try {
            if (protocol === 'h2paced' && !ran.h3?.reqPerSec) throw Object.assign(new Error('no HTTP/3 rate to pace to'), { code: 'ENOPACE' });
            ran[protocol] = await measure(row, protocol, ctx, ran.h3?.reqPerSec);
          } catch (err) {
            ran[protocol] = { error: `${err.code || 'ERROR'}: ${err.message}` };
          }
          console.log(runLine(ran[protocol]));
          runs.set(id, [...(runs.get(id) ?? []), ran[protocol]]);
        }
      }
    }
  } finally {
    usage = await sampler.stop();
    await server.stop();
  }

  const finishedAt = new Date();
  const rows = opts.rows.flatMap((row) => protocolsOf(row).map((protocol) => {
    const id = rowId(row, protocol);
    const { runs: measured, summary } = summarizeRuns(runs.get(id));
    const ok = measured.filter((r) => !r.error);
    const extra = (get) => summarize(ok.map(get));
    Object.assign(summary, {
      serverCpuShare: extra((r) => r.serverCpuShare),
      sectionBytesPerResponse: extra((r) => r.sectionBytesPerResponse ?? null),
      encoderBytesPerResponse: extra((r) => r.encoderBytesPerResponse ?? null),
    });
    return { id, protocol, file: row.file, load: row.load, coding: CODING, runs: measured, summary };
  }));
  const section = {
    command: commandLine(),
    ...(opts.note ? { note: opts.note } : {}),
    startedAt: startedAt.toISOString(),
    finishedAt: finishedAt.toISOString(),
    tools: {
      h2load: await toolVersion('h2load', ['--version'], /h2load nghttp2\/(\S+)/),
      aioquic: await aioquicVersion(),
      python: await toolVersion('python3', ['--version'], /Python (\S+)/),
      openssl: process.versions.openssl,
    },
    config: {
      durationS: opts.durationS, warmUpS: opts.warmUpS, repeat: opts.repeat,
      loads: Object.fromEntries(Object.entries(LOADS).map(([name, l]) => [name, {
        h2load: l.h2.join(' '), h3: `${l.h3.processes} aioquic process(es) x ${l.h3.concurrency} requests in flight`,
        ...(name === 'many' ? { h2paced: `h2load ${pacedArgs(name, 0).slice(0, 2).join(' ')} --rps=<HTTP/3 req/s / ${l.h3.processes}>` } : {}),
      }])),
      pinning: pinning.enabled ? { serverCpu: SERVER_CORE, clientCpu: CLIENT_CORE } : { off: pinning.reason },
      loadAverageAtStart,
      loadAverageAtEnd: os.loadavg(),
    },
    server: { peakRssBytes: usage.peakRssBytes },
    corpus: Object.fromEntries(Object.entries(corpus.files).map(([k, f]) => [k, { name: f.name, bytes: f.bytes.length }])),
    rows,
  };
  const file = await saveSection('h3', section, { machine: machineInfo(), dir: opts.resultsDir });
  const readme = await writeReadme(opts.resultsDir);
  await removeTempDir(tmpDir);
  console.log(`wrote ${path.relative(process.cwd(), file)} and ${path.relative(process.cwd(), readme)}`);
}

main().catch((err) => {
  console.error(`bench:h3: ${err.message}`);
  process.exit(err.code === 'EUSAGE' ? 2 : 1);
});
