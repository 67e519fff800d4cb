'use strict';
// npm run bench:soak -- [--duration 5m | --quick] [--results-dir DIR]
// Holds a fresh server (node server --port 0) under wrk (HTTPS/1.1) and h2load (HTTP/2) for
// the whole duration, with a checker comparing sampled responses to their sources and an
// aborter abandoning on-the-fly compressed downloads; records the server's RSS every
// second; saves the results and the verdict under bench/results/ (kind "soak") and
// exits non-zero when the verdict fails.
const fs = require('node:fs/promises');
const os = require('node:os');
const path = require('node:path');
const { parseArgs } = require('node:util');
const { parseDurationMs } = require('../lib/units');
const { machineInfo, toolVersion } = require('../lib/machine-info');
const { saveSection } = require('../lib/results-store');
const { writeReadme } = require('../lib/results-readme');
const { writeSelfSignedCert } = require('../lib/tls-cert');
const { findOnPath } = require('../lib/find-on-path');
const { installCleanupHandlers, registerTempDir, removeTempDir, runToCompletion } = require('../lib/process-group');
const { parseWrkOutput } = require('../lib/wrk-output');
const { parseH2loadOutput } = require('../lib/h2load-output');
const { startProjectServer } = require('../server/project-server');
const { buildSoakCorpus } = require('./corpus');
const { recordRss } = require('./rss-series');
const { startChecker, startAborter, CODINGS } = require('./probes');
const { soakVerdict } = require('./verdict');

const REPO_ROOT = path.resolve(__dirname, '..', '..');
const DEFAULT_DURATION_S = 300;
const QUICK_DURATION_S = 60;
const HANG_MARGIN_MS = 30_000;
// Moderate load: the point is hours-like churn on a shared 2-core machine, not peak rate.
const WRK_ARGS = ['-t1', '-c16', '--timeout', '30s'];
const H2LOAD_ARGS = ['-c8', '-m8', '-T', '30'];

function parseOptions(argv) {
  const { values } = parseArgs({ args: argv, options: {
    duration: { type: 'string' }, quick: { type: 'boolean', default: false }, 'results-dir': { type: 'string' },
  } });
  let durationS = values.quick ? QUICK_DURATION_S : DEFAULT_DURATION_S;
  if (values.duration !== undefined) {
    const ms = /^\d+$/.test(values.duration) ? Number(values.duration) * 1000 : parseDurationMs(values.duration);
    durationS = Math.round(ms / 1000);
  }
  if (!values.quick && durationS < 120) throw new Error('--duration must be at least 2m (first minute vs last minute); use --quick for a 60 s check');
  return { durationS, resultsDir: values['results-dir'] };
}

// wrk rotates every path through every coding with a Lua request generator.
async function wrkScript(dir, paths) {
  const file = path.join(dir, 'rotate.lua');
  const list = (items) => `{ ${items.map((s) => JSON.stringify(s)).join(', ')} }`;
  await fs.writeFile(file, [
    `local paths = ${list(paths)}`,
    `local codings = ${list(CODINGS)}`,
    'local i = 0',
    'request = function()',
    '  i = i + 1',
    '  local c = codings[(math.floor(i / #paths) % #codings) + 1]',
    '  return wrk.format("GET", paths[(i % #paths) + 1], { ["Accept-Encoding"] = c })',
    'end',
    '',
  ].join('\n'));
  return file;
}

async function runWrk(url, script, durationS) {
  const { stdout } = await runToCompletion('wrk', [...WRK_ARGS, '-s', script, `-d${durationS}s`, url],
    { timeoutMs: durationS * 1000 + HANG_MARGIN_MS, name: 'wrk' });
  const r = parseWrkOutput(stdout);
  return { requests: r.requests, reqPerSec: r.reqPerSec, errors: r.errors };
}

async function runH2load(origin, paths, durationS) {
  const { stdout } = await runToCompletion('h2load', [...H2LOAD_ARGS, '-D', String(durationS),
    '-H', 'accept-encoding: zstd, br;q=0.9, lzma;q=0.8', ...paths.map((p) => origin + p)],
  { timeoutMs: durationS * 1000 + HANG_MARGIN_MS, name: 'h2load' });
  const r = parseH2loadOutput(stdout);
  if (r.protocol !== 'h2') throw new Error(`h2load negotiated ${r.protocol}, not h2`);
  return { requests: r.requests, reqPerSec: r.reqPerSec, errors: r.errors };
}

async function main() {
  const opts = parseOptions(process.argv.slice(2));
  for (const tool of ['wrk', 'h2load']) {
    if (!(await findOnPath(tool))) throw new Error(`${tool} is not installed (bash scripts/system-deps.sh install)`);
  }
  installCleanupHandlers();
  const tmp = registerTempDir(await fs.mkdtemp(path.join(os.tmpdir(), 'negotiate-soak-')));
  const root = path.join(tmp, 'root');
  const sources = await buildSoakCorpus(root);
  const { cert, key } = await writeSelfSignedCert(tmp);
  const server = await startProjectServer({ serverDir: path.join(REPO_ROOT, 'server'), root, workers: 1, cert, key, pin: (cmd, args) => [cmd, args] });
  const origin = server.url.replace(/\/$/, '');
  console.log(`soak: ${opts.durationS} s against ${origin} (pgid ${server.pgid})`);
  const startedAt = new Date().toISOString();
  let section;
  try {
    const rss = recordRss(server.pgid);
    const checker = startChecker(origin, sources);
    const aborter = startAborter(origin);
    // The big streamed file is left to the checker and the aborter: under full load its
    // on-the-fly lzma would monopolise both cores.
    const loadPaths = [...sources.keys()].filter((p) => !p.startsWith('/stream/'));
    const [wrk, h2load] = await Promise.all([
      runWrk(server.url, await wrkScript(tmp, loadPaths), opts.durationS),
      runH2load(origin, loadPaths, opts.durationS),
    ]);
    const [checked, aborted, rssSamples] = await Promise.all([checker.stop(), aborter.stop(), rss.stop()]);
    const verdict = soakVerdict({
      samples: rssSamples,
      durationS: opts.durationS,
      failures: {
        'wrk errors': wrk.errors.total,
        'h2load failures': h2load.errors.total,
        'checked responses failed': checked.failed,
        'checked responses corrupt': checked.corrupt,
      },
    });
    section = {
      command: ['npm run bench:soak', ...(process.argv.length > 2 ? ['--', ...process.argv.slice(2)] : [])].join(' '),
      startedAt,
      finishedAt: new Date().toISOString(),
      tools: { wrk: await toolVersion('wrk', ['-v'], /wrk (\S+)/), h2load: await toolVersion('h2load', ['--version'], /nghttp2\/(\S+)/) },
      durationS: opts.durationS,
      clients: { wrk: WRK_ARGS.join(' '), h2load: H2LOAD_ARGS.join(' ') },
      load: { wrk, h2load },
      checker: checked,
      aborter: aborted,
      verdict,
      rssSamples,
    };
  } finally {
    await server.stop();
    await removeTempDir(tmp);
  }
  const file = await saveSection('soak', section, { machine: machineInfo(), dir: opts.resultsDir });
  await writeReadme(opts.resultsDir);
  const v = section.verdict;
  const mib = (b) => (b / 1024 / 1024).toFixed(1);
  console.log(`soak: peak RSS ${mib(v.firstWindowPeakRssBytes)} MiB (first ${v.windowS} s) -> ${mib(v.lastWindowPeakRssBytes)} MiB (last ${v.windowS} s), `
    + `wrk ${section.load.wrk.requests} req, h2load ${section.load.h2load.requests} req, checked ${section.checker.ok} ok / `
    + `${section.checker.failed} failed / ${section.checker.corrupt} corrupt, ${section.aborter.aborted} aborted`);
  if (section.checker.problems.length) console.log(`soak: problems:\n  ${section.checker.problems.join('\n  ')}`);
  console.log(`soak: ${v.pass ? 'PASS' : `FAIL: ${v.reasons.join('; ')}`} (results in ${path.relative(process.cwd(), file)})`);
  process.exit(v.pass ? 0 : 1);
}

main().catch((err) => {
  console.error(`soak: ${err.message}`);
  process.exit(1);
});
