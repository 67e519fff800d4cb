'use strict';
// Human-readable output of `npm run precompress`: a single self-overwriting
// progress line on terminals, and the summary table.

const { formatBytes } = require('../report/format-bytes');

const saving = ({ bytesBefore, bytesAfter }) => (bytesBefore === 0 ? '-' : `${(100 * (1 - bytesAfter / bytesBefore)).toFixed(1)}%`);

/**
 * The summary table: one row per coding. "before"/"after" cover every
 * compressible source, counting a source with no variant at its own size, so
 * they show what a client accepting that coding would download. Then every file
 * passed over, with the reason.
 * @param {import('./precompress').Summary} summary
 * @returns {string}
 */
function formatSummary(summary) {
  const header = ['coding', 'written', 'fresh', 'not smaller', 'skipped', 'before', 'after', 'saving'];
  const rows = Object.entries(summary.codings).map(([coding, c]) => [
    coding,
    String(c.written),
    String(c.fresh),
    String(c.notSmaller),
    String(c.skipped),
    formatBytes(c.bytesBefore),
    formatBytes(c.bytesAfter),
    saving(c),
  ]);
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => row[i].length)));
  // The coding name reads best left-aligned, numbers right-aligned.
  const line = (cells) => cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ');
  const { sources, tooSmall, incompressible, minBytes, skipped } = summary;
  return [
    line(header),
    ...rows.map(line),
    `${sources} compressible files; skipped ${tooSmall} under ${formatBytes(minBytes)} and ${incompressible} of incompressible types`,
    ...(skipped.length === 0 ? [] : [`skipped (${skipped.length}):`, ...skipped.map(({ file, reason }) => `  ${file}: ${reason}`)]),
  ].join('\n');
}

/**
 * A progress reporter that rewrites one terminal line.
 * @param {import('node:tty').WriteStream} stream a TTY.
 */
function createProgressLine(stream) {
  const render = (text) => stream.write(`\r\x1b[K${text.slice(0, Math.max(0, (stream.columns || 80) - 1))}`);
  return {
    /** @param {{ done: number, total: number, file: string }} progress */
    update: ({ done, total, file }) => render(`precompress [${done}/${total}] ${file}`),
    clear: () => stream.write('\r\x1b[K'),
  };
}

module.exports = { formatSummary, createProgressLine };
