'use strict';
// Command line of `npm run bench` (= bench:server).
const path = require('node:path');
const { parseCommandLine, wholeNumber, usageError: withUsage } = require('../lib/command-line');
const { ALL } = require('./plan');

// Plan and timings of each preset; flags override the timings.
const PRESETS = {
  default: { plan: 'default', durationS: 10, warmUpS: 2, repeat: 3 },
  quick: { plan: 'default', durationS: 2, warmUpS: 1, repeat: 1 },
  smoke: { plan: 'smoke', durationS: 1, warmUpS: 1, repeat: 1 },
  full: { plan: 'full', durationS: 10, warmUpS: 2, repeat: 3 },
};

const USAGE = `usage: npm run bench -- [options]
  --quick              the default rows, 2 s each, 1 run, 1 s warm-up (about 3 minutes)
  --smoke              4 headline rows, 1 s each, 1 run (under a minute)
  --full               every file x coding x server x protocol (hours)
  --duration S         measured whole seconds per run (default 10)
  --warmup S           warm-up whole seconds before measuring, 0 for none (default 2)
  --repeat N           runs per row; the median and min-max are reported (default 3)
  --rows PATTERNS      row ids protocol/file/mode/coding/server/load, * within a part,
                       comma-separated; e.g. 'h2/html/static/br/*' or '*/js/*/br/ours-native'
  --files LIST         ${ALL.files.join(',')}
  --codings LIST       ${ALL.codings.join(',')}
  --servers LIST       ${ALL.servers.join(',')}
  --protocols LIST     ${ALL.protocols.join(',')}
  --modes LIST         ${ALL.modes.join(',')}  (precompressed, on the fly after warm-up, on the fly from start)
  --loads LIST         ${ALL.loads.join(',')}  (wrk -c100 / h2load -c50 -m10, or one connection, one request at a time)
  --server-dir DIR     the server to measure (default: this repo's server/)
  --results-dir DIR    where the JSON and README go (default: bench/results)
  --note TEXT          a remark printed with the results (e.g. what else ran on the machine)
  --dry-run            print the plan and its ETA, run nothing
Filters narrow the chosen plan (default, --quick, --smoke or --full).`;

function list(value, axis) {
  if (value === undefined) return undefined;
  const items = value.split(',').map((s) => s.trim()).filter(Boolean);
  const bad = items.filter((i) => !ALL[axis].includes(i));
  if (bad.length) throw usageError(`--${axis}: unknown ${bad.join(', ')} (known: ${ALL[axis].join(', ')})`);
  return items;
}

function rowPatterns(value) {
  if (value === undefined) return undefined;
  const items = value.split(',').map((s) => s.trim()).filter(Boolean);
  const bad = items.filter((p) => !/^[\w*-]+(\/[\w*-]+){0,5}$/.test(p));
  if (!items.length || bad.length) throw usageError(`--rows: bad pattern ${bad.join(', ') || '(empty)'}`);
  return items;
}

const usageError = (message) => withUsage(message, USAGE);

function parseOptions(argv) {
  const values = parseCommandLine(argv, {
    quick: { type: 'boolean' }, smoke: { type: 'boolean' }, full: { type: 'boolean' }, 'dry-run': { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
    duration: { type: 'string' }, warmup: { type: 'string' }, repeat: { type: 'string' }, rows: { type: 'string' },
    ...Object.fromEntries(Object.keys(ALL).map((axis) => [axis, { type: 'string' }])),
    'server-dir': { type: 'string' }, 'results-dir': { type: 'string' }, note: { type: 'string' },
  }, USAGE);
  if (values.help) return { help: USAGE };
  const presets = ['quick', 'smoke', 'full'].filter((p) => values[p]);
  if (presets.length > 1) throw usageError(`--${presets.join(' and --')} exclude each other`);
  const preset = PRESETS[presets[0] || 'default'];
  const repo = path.resolve(__dirname, '..', '..');
  return {
    plan: preset.plan,
    durationS: wholeNumber(values.duration ?? preset.durationS, 'duration', 1, USAGE),
    warmUpS: wholeNumber(values.warmup ?? preset.warmUpS, 'warmup', 0, USAGE),
    repeat: wholeNumber(values.repeat ?? preset.repeat, 'repeat', 1, USAGE),
    filters: { ...Object.fromEntries(Object.keys(ALL).map((axis) => [axis, list(values[axis], axis)])), rows: rowPatterns(values.rows) },
    serverDir: path.resolve(values['server-dir'] ?? path.join(repo, 'server')),
    resultsDir: values['results-dir'] ? path.resolve(values['results-dir']) : undefined,
    dryRun: Boolean(values['dry-run']),
    note: values.note?.trim() || null,
  };
}

module.exports = { parseOptions, USAGE };
