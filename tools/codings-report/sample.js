'use strict';
// The files `negotiate-h2 codings` measures: the compressible files a server would compress
// (the same walk as precompress), spread evenly over the site and capped at a byte budget so
// a run stays bounded on large sites.

const fs = require('node:fs/promises');
const { listSourceFiles, isCompressibleName } = require('../../server/files/tree-walk');
const { MIN_COMPRESS_BYTES } = require('../../server/compression/compressibility');

/**
 * @returns {Promise<{ files: string[], bytes: number, ofFiles: number, ofBytes: number }>} the
 *   sample, and how many files and bytes the site has in all.
 */
async function sampleFiles(dir, budgetBytes) {
  const { files } = await listSourceFiles(dir);
  const sized = [];
  for (const file of files.filter(isCompressibleName).sort()) {
    const { size } = await fs.stat(file);
    if (size >= MIN_COMPRESS_BYTES) sized.push({ file, size });
  }
  const ofBytes = sized.reduce((n, f) => n + f.size, 0);
  // Every stride-th file, so the sample spans the site's folders instead of its first ones.
  const stride = Math.max(1, Math.floor(ofBytes / budgetBytes));
  const chosen = [];
  let bytes = 0;
  for (let i = 0; i < sized.length && bytes < budgetBytes; i += stride) {
    chosen.push(sized[i].file);
    bytes += sized[i].size;
  }
  return { files: chosen, bytes, ofFiles: sized.length, ofBytes };
}

module.exports = { sampleFiles };
