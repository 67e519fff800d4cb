#!/usr/bin/env node
'use strict';
// `npm run precompress [dir]`: writes .br/.gz/.zst/.lzma variants next to every
// compressible file at the strongest settings, so the server can serve them
// without compressing per request. Idempotent: a variant is fresh when its mtime
// is not older than its source's, and fresh variants are left alone. It only ever
// replaces or deletes variants it wrote itself and nobody changed since (see
// precompress-manifest.js); anything else at a variant's name is the user's and is
// skipped with the reason, unless --force.
//
// Usage: node tools/precompress [dir] [--quiet] [--codings br,gzip,zstd,lzma] [--levels br=11,...] [--force]
// Exit status: 0 success, 1 some files failed (each named on stderr), 2 bad options.

const fs = require('node:fs/promises');
const { constants: fsConstants } = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { parseToolArgs, usageText } = require('../../server/config/tool-args');
const { PRECOMPRESS, defaultOf } = require('../../server/config/schema');
const { VARIANT_EXTENSIONS, createEngines, warnUnavailable } = require('../../server/compression/codings');
const { precompressDeltas } = require('./deltas');
const { listSourceFiles, listNamedFiles, isCompressibleName } = require('../../server/files/tree-walk');
const { forEachLimited } = require('../../server/files/for-each-limited');
const { lstatVariant, writeVariant, removeVariant } = require('./variant');
const { Manifest } = require('./manifest');
const { formatSummary, createProgressLine } = require('./report');
const { savesBytes } = require('../../server/compression/compressibility');
const { endQuietlyOnEpipe } = require('../../server/log/closed-stdout');

/**
 * @typedef {object} CodingSummary
 * @property {number} written variants (re)written this run
 * @property {number} fresh variants already up to date
 * @property {number} notSmaller sources whose compressed form was not smaller (no variant kept)
 * @property {number} skipped variants left alone because they are not the tool's (see Summary.skipped)
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
 * @property {number} removed variants of vanished sources removed (with `only`)
 * @property {{ file: string, reason: string }[]} skipped files passed over, relative to dir: sources
 *   that are not regular files or cannot be read, variants the tool did not write
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

const NOT_OURS = 'exists, not written by precompress (use --force)';

/** Why a variant-named entry that is not the tool's is in the way, or null when it may be replaced. */
function notOursReason(existing, owned, force) {
  if (existing === null || owned || force) return null;
  return existing.isSymbolicLink() ? 'symbolic link, not written by precompress (use --force)'
    : existing.isFile() ? NOT_OURS : 'exists and is not a regular file (use --force)';
}

/**
 * Brings one coding's variant of `source` up to date, touching only a variant the manifest says
 * the tool wrote, or any with `force`. A variant of someone else's with exactly the bytes the
 * tool would write is taken over: replacing it loses nothing.
 * @returns {Promise<{ outcome: 'written'|'fresh'|'notSmaller'|'skipped', size: number, reason?: string }>}
 */
async function updateVariant({ engines, coding, source, sourceStat, readSource, force, manifest }) {
  const target = source + VARIANT_EXTENSIONS[coding];
  const existing = await lstatVariant(target);
  const owned = manifest.owns(target, existing);
  // A record the file no longer matches is stale: whatever is there now is not the tool's.
  if (!owned) manifest.forget(target);
  if (!force && existing?.isFile() && existing.mtimeNs >= sourceStat.mtimeNs) {
    return { outcome: 'fresh', size: Number(existing.size) };
  }
  const sourceSize = Number(sourceStat.size);
  let reason = notOursReason(existing, owned, force);
  if (reason !== null && reason !== NOT_OURS) return { outcome: 'skipped', size: sourceSize, reason };
  const compressed = await engines.compress(coding, await readSource(), { level: 'max' });
  if (reason === NOT_OURS && savesBytes(compressed.length, sourceSize) && existing.size === BigInt(compressed.length)
    && (await fs.readFile(target)).equals(compressed)) reason = null;
  // A stale variant that is not the tool's is left in place; the server ignores it as stale.
  if (reason !== null) return { outcome: 'skipped', size: sourceSize, reason };
  if (!savesBytes(compressed.length, sourceSize)) {
    // A stale variant from an older, more compressible version must not linger.
    if (existing !== null) await removeVariant(target, existing);
    manifest.forget(target);
    return { outcome: 'notSmaller', size: sourceSize };
  }
  manifest.record(target, await writeVariant(target, compressed, sourceStat.mtimeNs, existing));
  return { outcome: 'written', size: compressed.length };
}

/**
 * Removes the variants of a source that is gone, of every coding, that the manifest says the
 * tool wrote and nobody changed since; anything else at those names is the user's and stays.
 * @returns {Promise<number>} how many were removed
 */
async function removeOwnedVariants(source, manifest) {
  let removed = 0;
  for (const ext of Object.values(VARIANT_EXTENSIONS)) {
    const target = source + ext;
    const existing = await lstatVariant(target);
    if (manifest.owns(target, existing)) {
      try {
        await removeVariant(target, existing);
        removed++;
      } catch (err) {
        if (err.code !== 'ERR_VARIANT_CHANGED') throw err;
      }
    }
    manifest.forget(target);
  }
  return removed;
}

/**
 * Writes the variants of every compressible file under `dir`.
 * @param {string} dir
 * @param {object} [options]
 * @param {import('./codings').Engines} [options.engines] defaults to createEngines().
 * @param {(line: string) => void} [options.log] told about each file that failed.
 * @param {string[]} [options.codings] defaults to every coding with a variant (server/config/schema.js)
 * @param {boolean} [options.force=false] rewrite fresh variants too, and replace or delete variants
 *   the tool did not write.
 * @param {number} [options.concurrency=os.availableParallelism()] files compressed at once (their codings run together).
 * @param {number} [options.minBytes] smaller files get no variants; default: the server's minCompressBytes.
 * @param {(progress: { done: number, total: number, file: string }) => void} [options.onProgress] after each file.
 * @param {AbortSignal} [options.signal] stops starting files; those in progress finish and are recorded.
 * @param {string[]} [options.only] names relative to dir (a watcher's): only these files (or the files
 *   under these directories); of a name whose file is gone, the variants the tool wrote are removed.
 * @returns {Promise<Summary>} rejects (code ERR_PRECOMPRESS_USAGE) only for bad options, an unreadable
 *   dir or an untrustworthy manifest; per-file failures are listed in summary.errors.
 */
async function precompressDir(dir, {
  engines = createEngines(),
  log = () => {},
  codings = defaultOf('codings', PRECOMPRESS),
  force = false,
  concurrency = os.availableParallelism(),
  minBytes = defaultOf('minBytes', PRECOMPRESS),
  onProgress = () => {},
  signal,
  only,
} = {}) {
  checkCodings(codings, engines);
  let listing;
  try {
    listing = only === undefined ? await listSourceFiles(dir) : await listNamedFiles(dir, only);
  } catch (err) {
    throw Object.assign(usageError(`cannot read directory ${dir}: ${err.message}`), { cause: err });
  }
  let manifest;
  try {
    manifest = await Manifest.load(path.resolve(dir));
  } catch (err) {
    throw Object.assign(usageError(err.message), { cause: err });
  }
  const compressibleFiles = listing.files.filter(isCompressibleName);
  const summary = {
    dir: path.resolve(dir),
    sources: 0,
    tooSmall: 0,
    incompressible: listing.files.length - compressibleFiles.length,
    minBytes,
    codings: Object.fromEntries(codings.map((c) => [c, { written: 0, fresh: 0, notSmaller: 0, skipped: 0, bytesBefore: 0, bytesAfter: 0 }])),
    removed: 0,
    skipped: [],
    errors: [],
  };
  const relative = (file) => path.relative(summary.dir, file);
  const skip = (file, reason) => summary.skipped.push({ file: relative(file), reason });
  for (const { file, reason } of listing.skipped) skip(file, reason);

  for (const source of listing.missing ?? []) {
    try {
      summary.removed += await removeOwnedVariants(source, manifest);
    } catch (err) {
      summary.errors.push({ file: relative(source), message: err.message, code: err.code });
      log(`${relative(source)}: ${err.message}`);
    }
  }
  let done = 0;
  await forEachLimited(compressibleFiles, Math.max(1, concurrency), async (source) => {
    try {
      await precompressFile(source);
    } catch (err) {
      summary.errors.push({ file: relative(source), message: err.message, code: err.code });
      log(`${relative(source)}: ${err.message}`);
    }
    onProgress({ done: ++done, total: compressibleFiles.length, file: relative(source) });
  }, signal);
  try {
    await manifest.save();
  } catch (err) {
    summary.errors.push({ file: relative(manifest.file), message: err.message, code: err.code });
    log(`${relative(manifest.file)}: ${err.message}`);
  }
  const byFile = (a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0);
  summary.skipped.sort(byFile);
  return summary;

  async function precompressFile(source) {
    // Stat and read through one handle so the recorded mtime matches the bytes compressed. The
    // flags refuse a source that became a symbolic link, and keep a FIFO from blocking the open.
    let handle;
    try {
      handle = await fs.open(source, fsConstants.O_RDONLY | fsConstants.O_NOFOLLOW | fsConstants.O_NONBLOCK);
    } catch (err) {
      if (err.code === 'ELOOP') skip(source, 'symbolic link (not followed)');
      else if (err.code === 'EACCES' || err.code === 'EPERM') skip(source, `unreadable (${err.code})`);
      else throw err;
      return;
    }
    try {
      const sourceStat = await handle.stat({ bigint: true });
      if (!sourceStat.isFile()) {
        skip(source, 'not a regular file');
        return;
      }
      if (sourceStat.size < BigInt(minBytes)) {
        summary.tooSmall++;
        return;
      }
      let content;
      const readSource = () => (content ??= handle.readFile());
      const results = await Promise.all(codings.map((coding) => updateVariant({ engines, coding, source, sourceStat, readSource, force, manifest }).catch((err) => {
        if (err.code !== 'ERR_VARIANT_CHANGED') throw err;
        return { outcome: 'skipped', size: Number(sourceStat.size), reason: err.message };
      })));
      summary.sources++;
      results.forEach(({ outcome, size, reason }, i) => {
        const totals = summary.codings[codings[i]];
        totals[outcome]++;
        totals.bytesBefore += Number(sourceStat.size);
        totals.bytesAfter += size;
        if (reason !== undefined) skip(source + VARIANT_EXTENSIONS[codings[i]], reason);
      });
    } finally {
      await handle.close();
    }
  }
}

/**
 * Runs the tool on argv and resolves its exit status.
 * @param {string[]} argv
 * @param {object} [how]
 * @param {string} [how.command] the command as the user typed it, for the usage text
 * @param {boolean} [how.requireDir=false] refuse to run without a directory (`negotiate-h2
 *   precompress`, where the default would be a folder of the installed package)
 */
async function main(argv, { command = 'node tools/precompress', requireDir = false } = {}) {
  const usage = usageText(command, PRECOMPRESS, { dirRequired: requireDir });
  let options;
  let parsed;
  try {
    parsed = parseToolArgs(argv, PRECOMPRESS, usageError);
    options = parsed.values;
    if (requireDir && !options.help && !parsed.given.has('dir')) throw usageError('expected the directory whose files get variants');
  } catch (err) {
    process.stderr.write(`precompress: ${err.message}\n${usage}`);
    return 2;
  }
  if (options.help) {
    process.stdout.write(usage);
    return 0;
  }
  const progress = !options.quiet && process.stderr.isTTY ? createProgressLine(process.stderr) : null;
  // SIGTERM (the server stopping) ends the run cleanly: files in progress finish and the
  // manifest records them, so no temporary file is left behind and the next run knows them.
  const stop = new AbortController();
  process.once('SIGTERM', () => stop.abort());
  const engines = createEngines({ levels: { max: options.levels } });
  // The default list leaves out, with one line each, a coding this runtime cannot make (zstd
  // without node:zlib's and with zstd-napi unbuilt); one asked for by name stays a usage error.
  let codings = options.codings;
  if (!parsed.given.has('codings')) {
    warnUnavailable(engines, codings, { warn: (line) => process.stderr.write(`precompress: ${line}\n`) });
    codings = codings.filter((coding) => engines.unavailable[coding] === undefined);
  }
  let summary;
  try {
    summary = await precompressDir(options.dir, {
      codings,
      engines,
      force: options.force,
      onProgress: progress ? progress.update : undefined,
      signal: stop.signal,
      only: options.only,
    });
  } catch (err) {
    if (err.code !== 'ERR_PRECOMPRESS_USAGE') throw err;
    process.stderr.write(`precompress: ${err.message}\n${usage}`);
    return 2;
  } finally {
    progress?.clear();
  }
  for (const { file, message } of summary.errors) process.stderr.write(`precompress: ${file}: ${message}\n`);
  if (!options.quiet) process.stdout.write(`${formatSummary(summary)}\n`);
  // A whole directory (not --only, which --watch-style runs use) with dictionary rules also
  // gets its deltas, in the server's cache folder.
  if (options.only === undefined && !stop.signal.aborted) {
    const deltas = await precompressDeltas(options.dir, { cacheDir: options.cacheDir });
    if (deltas !== null && !options.quiet) process.stdout.write(`dictionary deltas (RFC 9842): ${deltas} ready in ${options.cacheDir}\n`);
  }
  return summary.errors.length === 0 ? 0 : 1;
}

if (require.main === module) {
  endQuietlyOnEpipe();
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

module.exports = { precompressDir, main };
