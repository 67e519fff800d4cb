'use strict';
// npm run bench:hol [-- --quick] [--spacing MS] [--seeds N]
// Replays the hpack-test-case stories through HPACK (blocks in order) and
// QPACK (0, 16, 100 blocked streams) over the seed's simulated lossy link, on
// the grid RTT × loss × seeds, and writes bench/results/hol.md, the "hol"
// section of today's results JSON and bench/results/README.md. --quick runs
// the seed's two headline points with 2 seeds and only prints the comparison.
const fs = require('node:fs/promises');
const path = require('node:path');
const { parseArgs } = require('node:util');
const { machineInfo, commandLine } = require('../lib/machine-info');
const { RESULTS_DIR, saveSection } = require('../lib/results-store');
const { writeReadme } = require('../lib/results-readme');
const { missing, loadStories } = require('../../test/helpers/qpack-stories');
const { SCHEMES, FULL, QUICK, SPACING_MS } = require('./grid');
const { prepareStories, simulateGrid } = require('./simulate');
const { PACKET_BYTES } = require('./network');
const { TABLE_CAPACITY } = require('./replay');
const { renderPage, renderSeedTable, PAGE } = require('./report');

// The first line of every page this tool writes: an existing hol.md without
// it was written by someone else and is left alone.
const PAGE_MARK = '# Head-of-line blocking';

function options(argv) {
  const { values } = parseArgs({ args: argv, options: {
    quick: { type: 'boolean', default: false },
    spacing: { type: 'string', default: String(SPACING_MS) },
    seeds: { type: 'string' },
  } });
  const grid = { ...(values.quick ? QUICK : FULL) };
  if (values.seeds !== undefined) grid.seeds = positive(values.seeds, '--seeds', { integer: true });
  return { quick: values.quick, grid, spacingMs: positive(values.spacing, '--spacing') };
}

function positive(text, flag, { integer = false } = {}) {
  const n = Number(text);
  if (!(integer ? /^\d+$/ : /^\d+(\.\d+)?$/).test(text) || !(n > 0)) {
    throw new Error(`${flag} must be a positive ${integer ? 'integer' : 'number'}, got '${text}'`);
  }
  return n;
}

async function writePage(file, markdown) {
  const old = await fs.readFile(file, 'utf8').catch((err) => (err.code === 'ENOENT' ? null : Promise.reject(err)));
  if (old !== null && !old.startsWith(PAGE_MARK)) throw new Error(`${file} exists and was not written by bench/hol; not overwriting it`);
  await fs.writeFile(file, markdown);
}

async function main() {
  const opts = options(process.argv.slice(2));
  if (missing) throw new Error(missing);
  const startedAt = new Date().toISOString();
  const t0 = Date.now();
  const stories = prepareStories(loadStories());
  const { points, grid } = simulateGrid({
    ...opts.grid, spacingMs: opts.spacingMs, stories, schemes: SCHEMES,
    onPoint: (p) => process.stderr.write(`RTT ${p.rttMs} ms, loss ${p.loss * 100}%: HPACK ${p.schemes.hpack.perRequest.mean} ms/request, `
      + `QPACK-100 ${p.schemes['qpack-100'].perRequest.mean} ms/request\n`),
  });
  const section = {
    command: commandLine(),
    startedAt,
    finishedAt: new Date().toISOString(),
    durationS: Math.round((Date.now() - t0) / 1000),
    tools: {},
    stories: stories.length,
    requests: stories.reduce((n, s) => n + s.sections.length, 0),
    rtts: opts.grid.rtts,
    losses: opts.grid.losses,
    seeds: opts.grid.seeds,
    runsPerPoint: stories.length * opts.grid.seeds,
    spacingMs: opts.spacingMs,
    packetBytes: PACKET_BYTES,
    tableCapacity: TABLE_CAPACITY,
    schemes: SCHEMES,
    points,
    grid,
  };
  console.log(renderSeedTable(section));
  console.log(`${section.durationS} s`);
  if (opts.quick) return;
  const file = await saveSection('hol', section, { machine: machineInfo() });
  const page = path.join(RESULTS_DIR, PAGE);
  await writePage(page, renderPage(section, { chartsHref: 'charts' }).markdown);
  const readme = await writeReadme();
  console.log(`wrote ${path.relative(process.cwd(), file)}, ${path.relative(process.cwd(), page)}, ${path.relative(process.cwd(), readme)}`);
}

main().catch((err) => {
  console.error(`bench/hol: ${err.message}`);
  process.exit(1);
});
