'use strict';
// Command line of `npm run bench:server`.
const path = require('node:path');
const { parseArgs } = require('node:util');
const { ALL } = require('./plan');

const USAGE = `usage: npm run bench:server -- [options]
  --quick              few rows, 3 s each, 1 s warm-up (about 5 minutes)
  --full               every file x coding x server x protocol (hours)
  --duration S         measured seconds per run (default 10; 3 with --quick)
  --warmup S           warm-up seconds before measuring (default 2; 1 with --quick)
  --repeat N           runs per row; the median and min-max are reported (default 3)
  --files LIST         ${ALL.files.join(',')}
  --codings LIST       ${ALL.codings.join(',')}
  --servers LIST       ${ALL.servers.join(',')}
  --protocols LIST     ${ALL.protocols.join(',')}
  --modes LIST         ${ALL.modes.join(',')}  (precompressed, on the fly after warm-up, on the fly from start)
  --server-dir DIR     the server to measure (default: this repo's server/)
  --results-dir DIR    where the JSON and README go (default: bench/results)
  --dry-run            print the plan and its ETA, run nothing
Filters narrow the chosen plan (default, --quick or --full).`;

function list(value, axis) {
  if (value === undefined) return undefined;
  const items = value.split(',').map((s) => s.trim()).filter(Boolean);
  const bad = items.filter((i) => !ALL[axis].includes(i));
  if (bad.length) throw usageError(`--${axis}: unknown ${bad.join(', ')} (known: ${ALL[axis].join(', ')})`);
  return items;
}

function positive(value, name, { integer = false } = {}) {
  const n = Number(value);
  if (!(n > 0) || (integer && !Number.isInteger(n))) throw usageError(`--${name} must be a positive ${integer ? 'integer' : 'number'}`);
  return n;
}

function usageError(message) {
  return Object.assign(new Error(`${message}\n${USAGE}`), { code: 'EUSAGE' });
}

function parseOptions(argv) {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        quick: { type: 'boolean' }, full: { type: 'boolean' }, 'dry-run': { type: 'boolean' }, help: { type: 'boolean', short: 'h' },
        duration: { type: 'string' }, warmup: { type: 'string' }, repeat: { type: 'string', default: '3' },
        files: { type: 'string' }, codings: { type: 'string' }, servers: { type: 'string' }, protocols: { type: 'string' }, modes: { type: 'string' },
        'server-dir': { type: 'string' }, 'results-dir': { type: 'string' },
      },
    }));
  } catch (err) {
    throw usageError(err.message);
  }
  if (values.help) return { help: USAGE };
  if (values.quick && values.full) throw usageError('--quick and --full exclude each other');
  const repo = path.resolve(__dirname, '..', '..');
  return {
    plan: values.quick ? 'quick' : values.full ? 'full' : 'default',
    durationS: positive(values.duration ?? (values.quick ? 3 : 10), 'duration'),
    warmUpS: positive(values.warmup ?? (values.quick ? 1 : 2), 'warmup'),
    repeat: positive(values.repeat, 'repeat', { integer: true }),
    filters: Object.fromEntries(Object.keys(ALL).map((axis) => [axis, list(values[axis], axis)])),
    serverDir: path.resolve(values['server-dir'] ?? path.join(repo, 'server')),
    resultsDir: values['results-dir'] ? path.resolve(values['results-dir']) : undefined,
    dryRun: Boolean(values['dry-run']),
  };
}

module.exports = { parseOptions, USAGE };
