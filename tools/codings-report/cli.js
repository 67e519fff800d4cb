'use strict';
// `negotiate-h2 codings [dir]`: what each coding and level costs on this site's own files.
// Each (coding, level) is measured in a child process of its own (measure-child.js), one at a
// time so timings do not compete. Prints a table, the bytes a mix of browsers would download,
// and the level flags to start the server with; writes the table and two SVG charts to --out.
//
// Peak memory is the child's peak resident set (maxRSS) minus that of a baseline child that
// loads the same files and engines but compresses nothing: the memory compressing and
// decompressing the sample's files, one at a time, adds to a Node process.

const fs = require('node:fs/promises');
const os = require('node:os');
const path = require('node:path');
const { parseToolArgs, usageText } = require('../../server/config/tool-args');
const { SHARED } = require('../../server/config/schema');
const { formatLevels, positiveNumber, nonEmptyString } = require('../../server/config/parsers');
const { execFile } = require('node:child_process');
const { LEVEL_RANGES, createEngines } = require('../../server/compression/codings');
const { formatBytes } = require('../report/format-bytes');
const { sampleFiles } = require('./sample');
const { recommend, parseMix, mixBytes } = require('./recommend');
const { table, charts } = require('./render');
const { measureDeltas, deltaTable, PAIRS } = require('./deltas');

const CHILD = path.join(__dirname, 'measure-child.js');
const MiB = 1024 * 1024;
const SAMPLE_BYTES = { full: 4 * MiB, quick: 256 * 1024 };
// Compression time each measurement repeats the sample for (ms), so small sites time well.
const MIN_TIMED_MS = { full: 300, quick: 50 };
// --quick measures the ends and the usual picks of each range only.
const QUICK_LEVELS = { br: [1, 4, 5, 9, 11], zstd: [1, 3, 9, 19], gzip: [1, 6, 9], deflate: [1, 6, 9], lzma: [0, 1, 6, 9] };
// On-the-fly levels must keep up with this much input per core (MB/s); see recommend().
const DEFAULT_MIN_MBPS = 20;
// Not measured: an assumed mix. Current Chromium and Firefox send "gzip, deflate, br, zstd",
// Safari "gzip, deflate, br"; crawlers and tools often only gzip or nothing. Change with --mix.
const DEFAULT_MIX = 'gzip, deflate, br, zstd:70|gzip, deflate, br:22|gzip, deflate:6|:2';

const ARGS = [
  { ...SHARED.dir, key: 'dir', help: 'the site\'s files' },
  { flag: 'quick', key: 'quick', bool: true, def: false, help: `fewer levels and a ${formatBytes(SAMPLE_BYTES.quick)} sample (default sample ${formatBytes(SAMPLE_BYTES.full)})` },
  { flag: 'sample-bytes', key: 'sampleBytes', arg: 'N', parse: positiveNumber, help: 'measure at most this many bytes of files' },
  { flag: 'min-speed', key: 'minMBps', arg: 'MBPS', def: DEFAULT_MIN_MBPS, parse: positiveNumber, help: 'on-the-fly picks compress at least this many MB/s per core' },
  { flag: 'mix', key: 'mix', arg: 'AE:weight|...', def: DEFAULT_MIX, parse: parseMix, help: 'browser population by Accept-Encoding (the default is assumed)' },
  { flag: 'out', key: 'out', arg: 'DIR', parse: nonEmptyString, help: 'where to write report.md, ratio.svg and speed.svg (default: a new temporary directory)' },
];
const USAGE = usageText('negotiate-h2 codings', ARGS);

function usageError(message) {
  return Object.assign(new Error(message), { code: 'ERR_CODINGS_USAGE' });
}

function parseCommandLine(argv) {
  const { values, given } = parseToolArgs(argv, ARGS, usageError);
  return {
    ...values,
    dir: path.resolve(values.dir),
    sampleBytes: values.sampleBytes ?? (values.quick ? SAMPLE_BYTES.quick : SAMPLE_BYTES.full),
    mixAssumed: !given.has('mix'),
  };
}

function levelsToMeasure(coding, quick) {
  if (quick) return QUICK_LEVELS[coding];
  const { min, max } = LEVEL_RANGES[coding];
  return Array.from({ length: max - min + 1 }, (_, i) => min + i);
}

function runChild(coding, level, minMs, files) {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [CHILD, coding, String(level), String(minMs), ...files], { maxBuffer: MiB }, (err, stdout, stderr) => {
      if (err) reject(new Error(`measuring ${coding} ${level}: ${stderr.trim() || err.message}`));
      else resolve(JSON.parse(stdout));
    });
  });
}

function progressBar(stream) {
  if (!stream.isTTY) return { update() {}, clear() {} };
  return {
    update(done, total, label) {
      const width = 30;
      const filled = Math.round((width * done) / total);
      stream.write(`\r\x1b[Kcodings [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total} ${label}`);
    },
    clear: () => stream.write('\r\x1b[K'),
  };
}

/** Measures every coding this runtime has at its levels. */
async function measureAll(files, quick, progress) {
  const codings = createEngines().available;
  const jobs = codings.flatMap((coding) => levelsToMeasure(coding, quick).map((level) => ({ coding, level })));
  progress.update(0, jobs.length + 1, 'baseline');
  const minMs = quick ? MIN_TIMED_MS.quick : MIN_TIMED_MS.full;
  const baseline = await runChild('none', 0, minMs, files);
  const rows = [];
  for (const [i, { coding, level }] of jobs.entries()) {
    progress.update(i + 1, jobs.length + 1, `${coding} ${level}`);
    const m = await runChild(coding, level, minMs, files);
    rows.push({
      coding,
      level,
      inputBytes: m.inputBytes,
      outputBytes: m.outputBytes,
      compressMBps: m.inputBytes / 1e6 / (m.compressMs / 1e3),
      decompressMBps: m.inputBytes / 1e6 / (m.decompressMs / 1e3),
      memoryBytes: Math.max(0, m.maxRssKiB - baseline.maxRssKiB) * 1024,
    });
  }
  progress.clear();
  return { codings, rows };
}

/** The flags that start the server with the picks. */
function settingsLine(picks) {
  const precompress = Object.fromEntries(Object.entries(picks).filter(([, p]) => p.precompress !== null).map(([c, p]) => [c, p.precompress]));
  const dynamic = Object.fromEntries(Object.entries(picks).map(([c, p]) => [c, p.dynamic]));
  return `--precompress-levels ${formatLevels(precompress)} --dynamic-levels ${formatLevels(dynamic)}`;
}

const REPORT_FILES = ['report.md', 'ratio.svg', 'speed.svg'];

// The report's directory, checked before measuring: the report never replaces a file.
async function reportDir(out) {
  if (out === undefined) return fs.mkdtemp(path.join(os.tmpdir(), 'negotiate-codings-'));
  const dir = path.resolve(out);
  await fs.mkdir(dir, { recursive: true });
  for (const name of REPORT_FILES) {
    if (await fs.lstat(path.join(dir, name)).then(() => true, () => false)) throw new Error(`${path.join(dir, name)} exists; not replacing it`);
  }
  return dir;
}

// The dictionary deltas of the site's rules at the on-the-fly picks (deltas.js), as Markdown;
// '' when the site has none. A configuration that is not valid is said there, not thrown.
async function deltaSection(dir, picks) {
  let rows;
  try {
    rows = await measureDeltas(dir, { br: picks.br?.dynamic, zstd: picks.zstd?.dynamic });
  } catch (err) {
    return `## Dictionary deltas (RFC 9842)\n\nnot measured: ${err.message}\n`;
  }
  if (rows.length === 0) return '';
  return `## Dictionary deltas (RFC 9842)\n\nEach rule's ${PAIRS + 1} newest files, each sent against the one before as its dictionary, at the on-the-fly levels:\n\n${deltaTable(rows)}`;
}

async function main(argv) {
  let options;
  try {
    options = parseCommandLine(argv);
  } catch (err) {
    process.stderr.write(`negotiate-h2 codings: ${err.message}\n${USAGE}`);
    return 2;
  }
  if (options.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  let sample;
  try {
    sample = await sampleFiles(options.dir, options.sampleBytes);
  } catch (err) {
    process.stderr.write(`negotiate-h2 codings: cannot read ${options.dir}: ${err.message}\n`);
    return 2;
  }
  if (sample.files.length === 0) {
    process.stderr.write(`negotiate-h2 codings: ${options.dir} has no compressible files to measure\n`);
    return 2;
  }
  let dir;
  try {
    dir = await reportDir(options.out);
  } catch (err) {
    process.stderr.write(`negotiate-h2 codings: --out: ${err.message}\n`);
    return 2;
  }
  const { codings, rows } = await measureAll(sample.files, options.quick, progressBar(process.stderr));
  const picks = recommend(rows, options.minMBps);
  const download = (levelOf) => mixBytes(options.mix, rows, codings, levelOf, sample.bytes);
  const head = `${sample.files.length} of ${sample.ofFiles} compressible files (${formatBytes(sample.bytes)} of ${formatBytes(sample.ofBytes)}) in ${options.dir}`;
  const mixLines = [
    `Browser mix${options.mixAssumed ? ' (assumed; --mix to change)' : ''}: ${options.mix.map((m) => `${m.acceptEncoding === '' ? 'no Accept-Encoding' : `"${m.acceptEncoding}"`} ${(100 * m.share).toFixed(0)}%`).join(', ')}`,
    `Downloaded per copy of the sample: ${formatBytes(sample.bytes)} uncompressed, ` +
      `${formatBytes(download((c) => picks[c].precompress ?? picks[c].dynamic))} with the precompress picks (deflate on the fly), ` +
      `${formatBytes(download((c) => picks[c].dynamic))} with the on-the-fly picks`,
  ];
  const settings = settingsLine(picks);
  const deltas = await deltaSection(options.dir, picks);
  const markdown = [
    `# What each coding costs`, '', head, '', table(rows, picks),
    ...mixLines.map((l) => `${l}\n`), `On-the-fly picks: the smallest output at ${options.minMBps} MB/s per core or more (else the fastest level).`,
    `Precompress picks: the smallest output.`, '', `Settings: \`negotiate-h2 ${settings}\``, '',
    ...(deltas === '' ? [] : [deltas]),
  ].join('\n');
  const files = { 'report.md': markdown, ...charts(rows, picks, path.basename(options.dir)) };
  for (const name of REPORT_FILES) await fs.writeFile(path.join(dir, name), files[name], { flag: 'wx' });
  process.stdout.write(`${head}\n\n${table(rows, picks)}\n${mixLines.join('\n')}\n\n${deltas === '' ? '' : `${deltas}\n`}settings: ${settings}\nreport: ${dir}/report.md, ratio.svg, speed.svg\n`);
  return 0;
}

module.exports = { main, parseCommandLine, settingsLine };
