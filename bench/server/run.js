'use strict';
// npm run bench (= bench:server): measures the project's server (both engines)
// against nginx, nginx with open_file_cache and h2o over
// HTTPS/1.1 (wrk) and HTTP/2 (h2load), writes bench/results/<date>-<host>.json
// and regenerates bench/results/README.md. See --help.
const fs = require('node:fs/promises');
const os = require('node:os');
const path = require('node:path');
const { parseOptions } = require('./options');
const { buildPlan, estimateSeconds, MODES, SERVERS, LOADS } = require('./plan');
const { checkRequirements } = require('./requirements');
const { serverCapabilities } = require('./capabilities');
const { buildCorpus, variantSize } = require('./corpus');
const { measureRun, SERVER_CORE, CLIENT_CORE } = require('./measure');
const { clientSettings } = require('./load-clients');
const { summarizeRuns } = require('./summarize');
const { createPinning } = require('../lib/pinning');
const { writeSelfSignedCert } = require('../lib/tls-cert');
const { machineInfo, toolVersion, commandLine } = require('../lib/machine-info');
const { saveSection } = require('../lib/results-store');
const { writeReadme } = require('../lib/results-readme');
const { installCleanupHandlers, registerTempDir, removeTempDir, runToCompletion } = require('../lib/process-group');
// The corpus is precompressed by this repository's tool, whichever server --server-dir measures.
const PRECOMPRESS = path.resolve(__dirname, '..', '..', 'tools', 'precompress');

const minutes = (s) => `${Math.floor(Math.round(s) / 60)}m${String(Math.round(s) % 60).padStart(2, '0')}s`;
const describe = (r) => `${r.protocol} ${r.file} ${MODES[r.mode].label} ${r.coding} @ ${SERVERS[r.server].label}`
  + `${r.load === 'many' ? '' : `, ${LOADS[r.load].label}`}`;

function printPlan(rows, opts) {
  const runnable = rows.filter((r) => !r.skip);
  console.log(`plan "${opts.plan}": ${runnable.length} rows x ${opts.repeat} runs, ${opts.durationS} s each`
    + ` (+${opts.warmUpS} s warm-up except cold rows)`);
  for (const r of rows) console.log(`  ${r.skip ? 'n/a ' : '    '}${describe(r)}${r.skip ? ` (${r.skip})` : ''}`);
  console.log(`ETA ${minutes(estimateSeconds(rows, opts))}`);
}

async function toolVersions() {
  return {
    wrk: await toolVersion('wrk', ['-v'], /wrk (\S+)/),
    h2load: await toolVersion('h2load', ['--version'], /h2load nghttp2\/(\S+)/),
    nginx: await toolVersion('nginx', ['-v'], /nginx\/(\S+)/),
    h2o: await toolVersion('h2o', ['--version'], /h2o version (\S+)/),
    taskset: await toolVersion('taskset', ['-V'], /util-linux (\S+)/),
  };
}

async function corpusSummary(corpus) {
  const out = {};
  for (const [key, f] of Object.entries(corpus.files)) {
    const variants = {};
    for (const coding of ['br', 'zstd', 'gzip', 'lzma']) variants[coding] = await variantSize(corpus.roots.variants, f.name, coding);
    out[key] = { name: f.name, bytes: f.bytes.length, variants };
  }
  return out;
}

function runLine(run) {
  if (run.error) return `FAILED: ${run.error}`;
  const mb = (b) => (b / 2 ** 20).toFixed(0);
  return `${Math.round(run.reqPerSec)} req/s, p99 ${run.latencyMs.p99?.toFixed(1)} ms, ${run.errors.total} errors, `
    + `peak RSS ${mb(run.peakRssBytes)} MB, ${run.cpuSeconds.toFixed(1)} CPU s, body ${run.sample.ok ? 'ok' : run.sample.problem}`
    + `${run.h2loadHangs ? `, after ${run.h2loadHangs} hung h2load run${run.h2loadHangs > 1 ? 's' : ''}` : ''}`;
}

async function main() {
  const opts = parseOptions(process.argv.slice(2));
  if (opts.help) return console.log(opts.help);
  const caps = await serverCapabilities(opts.serverDir);
  const rows = buildPlan(opts.plan, opts.filters, caps);
  if (rows.length === 0) throw Object.assign(new Error('the filters leave no rows to run'), { code: 'EEMPTYPLAN' });
  printPlan(rows, opts);
  if (opts.dryRun) return;

  const runnable = rows.filter((r) => !r.skip);
  const problems = await checkRequirements(runnable, { serverDir: opts.serverDir });
  if (problems.length) throw Object.assign(new Error(`cannot run:\n  ${problems.join('\n  ')}`), { code: 'EREQUIREMENTS' });

  installCleanupHandlers();
  const tmpDir = registerTempDir(await fs.mkdtemp(path.join(os.tmpdir(), 'bench-server-')));
  const pinning = createPinning();
  console.log(pinning.enabled ? `pinning: servers on CPU ${SERVER_CORE}, load generators on CPU ${CLIENT_CORE}` : `pinning off: ${pinning.reason}`);
  const startedAt = new Date();
  const loadAverageAtStart = os.loadavg();
  const tls = await writeSelfSignedCert(tmpDir);
  const precompress = (dir) => runToCompletion(process.execPath, [PRECOMPRESS, dir, '--quiet'], { timeoutMs: 300000, name: 'precompress' });
  const corpus = await buildCorpus(tmpDir, { precompress });
  const ctx = { ...opts, tmpDir, pinning, tls, corpus, caps };

  // Repeats are the outer loop so that a disturbance from other work on the
  // machine hits one run of many rows rather than every run of one row.
  const runs = new Map(runnable.map((r) => [r.id, []]));
  const total = runnable.length * opts.repeat;
  let done = 0;
  for (let rep = 1; rep <= opts.repeat; rep++) {
    for (const row of runnable) {
      const left = estimateSeconds(runnable, { ...opts, repeat: 1 }) * (opts.repeat - rep)
        + estimateSeconds(runnable.slice(runnable.indexOf(row)), { ...opts, repeat: 1 });
      process.stdout.write(`[${++done}/${total}, ${minutes(left)} left] ${describe(row)} run ${rep}: `);
      let run;
      try {
        run = await measureRun(row, ctx);
      } catch (err) {
        run = { error: `${err.code || 'ERROR'}: ${err.message}` };
      }
      console.log(runLine(run));
      runs.get(row.id).push(run);
    }
  }

  const finishedAt = new Date();
  const section = {
    command: commandLine(),
    ...(opts.note ? { note: opts.note } : {}),
    startedAt: startedAt.toISOString(),
    finishedAt: finishedAt.toISOString(),
    tools: await toolVersions(),
    config: {
      plan: opts.plan, durationS: opts.durationS, warmUpS: opts.warmUpS, repeat: opts.repeat, engines: caps.engines,
      clients: clientSettings(),
      pinning: pinning.enabled ? { serverCpu: SERVER_CORE, clientCpu: CLIENT_CORE } : { off: pinning.reason },
      loadAverageAtStart,
      loadAverageAtEnd: os.loadavg(),
    },
    corpus: await corpusSummary(corpus),
    rows: rows.map((r) => ({ ...r, ...(r.skip ? {} : summarizeRuns(runs.get(r.id))) })),
  };
  const file = await saveSection('server', section, { machine: machineInfo(), dir: opts.resultsDir });
  const readme = await writeReadme(opts.resultsDir);
  await removeTempDir(tmpDir);
  console.log(`wrote ${path.relative(process.cwd(), file)} and ${path.relative(process.cwd(), readme)} in ${minutes((finishedAt - startedAt) / 1000)}`);
}

main().catch((err) => {
  console.error(`bench:server: ${err.message}`);
  process.exit(err.code === 'EUSAGE' ? 2 : 1);
});
