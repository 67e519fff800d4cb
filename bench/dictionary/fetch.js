'use strict';
// Fetches one file of a package release the way a developer would: `npm pack pkg@version` (the
// registry's tarball, through npm's own cache and configuration) into a cache folder, then
// `tar` extracts that one file next to it. A file already in the cache is not fetched again,
// so only the first run needs the registry.
const fs = require('node:fs/promises');
const path = require('node:path');
const { execFile } = require('node:child_process');

const DEFAULT_CACHE = path.resolve(__dirname, '..', 'build', 'dictionary-releases');

function run(cmd, args, cwd) {
  return new Promise((resolve, reject) => {
    execFile(cmd, args, { cwd, timeout: 120_000, maxBuffer: 4 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (err) reject(Object.assign(new Error(`${cmd} ${args.join(' ')} failed: ${String(stderr || err.message).trim().split('\n').slice(-3).join(' ')}`), { code: 'EFETCH' }));
      else resolve(stdout);
    });
  });
}

/** The bytes of `file` (a path inside the package) in `pkg@version`, fetched into `cacheDir` once. */
async function releaseFile(pkg, version, file, cacheDir = DEFAULT_CACHE) {
  const dir = path.join(cacheDir, `${pkg.replace(/[/@]/g, '_')}-${version}`);
  const target = path.join(dir, 'package', file);
  try {
    return await fs.readFile(target);
  } catch (err) {
    if (err.code !== 'ENOENT') throw err;
  }
  await fs.mkdir(dir, { recursive: true });
  const out = await run('npm', ['pack', `${pkg}@${version}`, '--silent', '--pack-destination', dir], dir);
  const tarball = path.join(dir, out.trim().split('\n').pop());
  try {
    await run('tar', ['-xzf', tarball, '-C', dir, `package/${file}`], dir);
  } finally {
    await fs.rm(tarball, { force: true });
  }
  return fs.readFile(target);
}

module.exports = { releaseFile, DEFAULT_CACHE };
