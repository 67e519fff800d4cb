#!/usr/bin/env node
'use strict';
// `npm run precompress [dir]`: writes .br/.gz/.zst/.lzma variants next to every
// compressible file at the strongest settings, so the server can serve them
// without compressing per request. Idempotent: a variant is fresh when its mtime
// is not older than its source's, and fresh variants are left alone.
//
// Usage: node server/precompress.js [dir] [--quiet] [--codings br,gzip,zstd,lzma] [--force]
// Exit status: 0 success, 1 some files failed (each named on stderr), 2 bad options.

const fs = require('node:fs/promises');
const os = require('node:os');
const path = require('node:path');
const { parseArgs } = require('node:util');
const { VARIANT_EXTENSIONS, createEngines } = require('./codings');
const { listSourceFiles, isCompressibleName } = require('./precompress-walk');
const { statVariant, writeVariant, removeVariant } = require('./precompress-variant');
const { formatSummary, createProgressLine } = require('./precompress-report');
const { MIN_COMPRESS_BYTES, savesBytes } = require('./compressibility');

const DEFAULT_DIR = path.join(__dirname, '..', 'static');
const DEFAULT_CODINGS = ['br', 'gzip', 'zstd', 'lzma'];

/**
 * @typedef {object} CodingSummary
 * @property {number} written variants (re)written this run
 * @property {number} fresh variants already up to date
 * @property {number} notSmaller sources whose compressed form was not smaller (no variant kept)
 * @property {number} bytesBefore total size of the compressible sources
 * @property {number} bytesAfter total size served to a client accepting this coding (variant, else source)
 *
 * @typedef {object} Summary
 * @property {string} dir
 * @property {number} sources compressible files of at least minBytes
 * @property {number} tooSmall compressible files under minBytes (left alone)
 * @property {number} incompressible files of incompressible or unknown types (left alone)
 * @property {number} minBytes
 * @property {Record<string, CodingSummary>} codings
 * @property {{ file: string, message: string, code?: string }[]} errors
 */

function usageError(message) {
  return Object.assign(new Error(message), { code: 'ERR_PRECOMPRESS_USAGE' });
}

/** Throws a usage error unless every coding has a variant and an engine here. */
function checkCodings(codings, engines) {
  if (codings.length === 0) throw usageError('no codings given');
  for (const coding of codings) {
    if (!Object.hasOwn(VARIANT_EXTENSIONS, coding)) {
      throw usageError(`'${coding}' has no precompressed variant (expected some of ${Object.keys(VARIANT_EXTENSIONS).join(', ')})`);
    }
    if (!engines.available.includes(coding)) throw usageError(`coding '${coding}' is not available in this runtime`);
  }
}

/** Runs `task` over `items` with at most `limit` in progress. */
async function forEachLimited(items, limit, task) {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await task(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}

/**
 * Brings one coding's variant of `source` up to date.
 * @returns {Promise<{ outcome: 'written'|'fresh'|'notSmaller', size: number }>}
 */
async function updateVariant({ engines, coding, source, sourceStat, readSource, force }) {
  const target = source + VARIANT_EXTENSIONS[coding];
  const existing = await statVariant(target);
  if (!force && existing && existing.mtimeNs >= sourceStat.mtimeNs) {
    return { outcome: 'fresh', size: Number(existing.size) };
  }
  const compressed = await engines.compress(coding, await readSource(), { level: 'max' });
  if (!savesBytes(compressed.length, Number(sourceStat.size))) {
    // A stale variant from an older, more compressible version must not linger.
    await removeVariant(target);
    return { outcome: 'notSmaller', size: Number(sourceStat.size) };
  }
  await writeVariant(target, compressed, sourceStat.mtimeNs);
  return { outcome: 'written', size: compressed.length };
}

/**
 * Writes the variants of every compressible file under `dir`.
 * @param {string} dir
 * @param {object} [options]
 * @param {import('./codings').Engines} [options.engines] defaults to createEngines().
 * @param {(line: string) => void} [options.log] told about each file that failed.
 * @param {string[]} [options.codings=['br','gzip','zstd','lzma']]
 * @param {boolean} [options.force=false] rewrite fresh variants too.
 * @param {number} [options.concurrency=os.availableParallelism()] files compressed at once (their codings run together).
 * @param {number} [options.minBytes=1024] smaller files get no variants.
 * @param {(progress: { done: number, total: number, file: string }) => void} [options.onProgress] after each file.
 * @returns {Promise<Summary>} rejects (code ERR_PRECOMPRESS_USAGE) only for bad options or an unreadable dir;
 *   per-file failures are listed in summary.errors.
 */
async function precompressDir(dir, {
  engines = createEngines(),
  log = () => {},
  codings = DEFAULT_CODINGS,
  force = false,
  concurrency = os.availableParallelism(),
  minBytes = MIN_COMPRESS_BYTES,
  onProgress = () => {},
} = {}) {
  checkCodings(codings, engines);
  let files;
  try {
    files = await listSourceFiles(dir);
  } catch (err) {
    throw Object.assign(usageError(`cannot read directory ${dir}: ${err.message}`), { cause: err });
  }
  const compressibleFiles = files.filter(isCompressibleName);
  const summary = {
    dir: path.resolve(dir),
    sources: 0,
    tooSmall: 0,
    incompressible: files.length - compressibleFiles.length,
    minBytes,
    codings: Object.fromEntries(codings.map((c) => [c, { written: 0, fresh: 0, notSmaller: 0, bytesBefore: 0, bytesAfter: 0 }])),
    errors: [],
  };

  let done = 0;
  await forEachLimited(compressibleFiles, Math.max(1, concurrency), async (source) => {
    try {
      await precompressFile(source);
    } catch (err) {
      const relative = path.relative(summary.dir, source);
      summary.errors.push({ file: relative, message: err.message, code: err.code });
      log(`${relative}: ${err.message}`);
    }
    onProgress({ done: ++done, total: compressibleFiles.length, file: path.relative(summary.dir, source) });
  });
  return summary;

  async function precompressFile(source) {
    // Stat and read through one handle so the recorded mtime matches the bytes compressed.
    const handle = await fs.open(source, 'r');
    try {
      const sourceStat = await handle.stat({ bigint: true });
      if (sourceStat.size < BigInt(minBytes)) {
        summary.tooSmall++;
        return;
      }
      let content;
      const readSource = () => (content ??= handle.readFile());
      const results = await Promise.all(codings.map((coding) => updateVariant({ engines, coding, source, sourceStat, readSource, force })));
      summary.sources++;
      results.forEach(({ outcome, size }, i) => {
        const totals = summary.codings[codings[i]];
        totals[outcome]++;
        totals.bytesBefore += Number(sourceStat.size);
        totals.bytesAfter += size;
      });
    } finally {
      await handle.close();
    }
  }
}

const USAGE = 'usage: node server/precompress.js [dir] [--quiet] [--codings br,gzip,zstd,lzma] [--force]';

/** Parses argv; throws ERR_PRECOMPRESS_USAGE on anything unexpected. */
function parseCommandLine(argv) {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        quiet: { type: 'boolean', default: false },
        force: { type: 'boolean', default: false },
        codings: { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (err) {
    throw usageError(err.message);
  }
  const { values, positionals } = parsed;
  if (positionals.length > 1) throw usageError(`expected at most one directory, got ${positionals.length}`);
  return {
    dir: positionals[0] ?? DEFAULT_DIR,
    quiet: values.quiet,
    force: values.force,
    help: values.help,
    codings: values.codings === undefined ? DEFAULT_CODINGS : values.codings.split(',').map((c) => c.trim()).filter(Boolean),
  };
}

async function main(argv) {
  let options;
  try {
    options = parseCommandLine(argv);
  } catch (err) {
    process.stderr.write(`precompress: ${err.message}\n${USAGE}\n`);
    return 2;
  }
  if (options.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const progress = !options.quiet && process.stderr.isTTY ? createProgressLine(process.stderr) : null;
  let summary;
  try {
    summary = await precompressDir(options.dir, {
      codings: options.codings,
      force: options.force,
      onProgress: progress ? progress.update : undefined,
    });
  } catch (err) {
    if (err.code !== 'ERR_PRECOMPRESS_USAGE') throw err;
    process.stderr.write(`precompress: ${err.message}\n${USAGE}\n`);
    return 2;
  } finally {
    progress?.clear();
  }
  for (const { file, message } of summary.errors) process.stderr.write(`precompress: ${file}: ${message}\n`);
  if (!options.quiet) process.stdout.write(`${formatSummary(summary)}\n`);
  return summary.errors.length === 0 ? 0 : 1;
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (err) => {
      process.stderr.write(`precompress: ${err.stack}\n`);
      process.exitCode = 1;
    },
  );
}

module.exports = { precompressDir, DEFAULT_CODINGS };
