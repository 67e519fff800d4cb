'use strict';
// The system tools the HPACK benchmark needs, checked before anything is
// built; each problem names the Debian package and the repo's install script.
const fs = require('node:fs/promises');
const { findOnPath, fileExists: exists } = require('../lib/find-on-path');
const { toolVersion } = require('../lib/machine-info');

const NGHTTP2_HEADER = '/usr/include/nghttp2/nghttp2.h';
const NGHTTP2_VERSION_HEADER = '/usr/include/nghttp2/nghttp2ver.h';
const CALLGRIND_HEADER = '/usr/include/valgrind/callgrind.h';

// Resolves to a list of problems (strings); empty when all is there.
async function checkTools({ callgrind }) {
  const needs = [
    { what: 'a C compiler (cc)', pkg: 'gcc', test: () => findOnPath('cc') },
    { what: 'make', pkg: 'make', test: () => findOnPath('make') },
    { what: `libnghttp2 headers (${NGHTTP2_HEADER})`, pkg: 'libnghttp2-dev', test: () => exists(NGHTTP2_HEADER) },
  ];
  if (callgrind) {
    needs.push({ what: 'valgrind', pkg: 'valgrind', test: () => findOnPath('valgrind') });
    needs.push({ what: `callgrind client requests (${CALLGRIND_HEADER})`, pkg: 'valgrind', test: () => exists(CALLGRIND_HEADER) });
  }
  const missing = [];
  for (const n of needs) if (!(await n.test())) missing.push(n);
  if (missing.length === 0) return [];
  const pkgs = [...new Set(missing.map((n) => n.pkg))];
  return [
    ...missing.map((n) => `${n.what} is missing (Debian package ${n.pkg})`),
    `install with: sudo apt-get install -y ${pkgs.join(' ')}  (or: sudo bash scripts/system-deps.sh install)`,
  ];
}

async function nghttp2Version() {
  try {
    return /NGHTTP2_VERSION "([^"]+)"/.exec(await fs.readFile(NGHTTP2_VERSION_HEADER, 'utf8'))?.[1] ?? null;
  } catch {
    return null;
  }
}

async function toolVersions({ callgrind }) {
  const [compiler, nghttp2, valgrind] = await Promise.all([
    toolVersion('cc', ['--version'], /^(.+)$/m),
    nghttp2Version(),
    callgrind ? toolVersion('valgrind', ['--version'], /valgrind-(\S+)/) : null,
  ]);
  return { compiler, libnghttp2: nghttp2, ...(callgrind ? { valgrind } : {}) };
}

module.exports = { checkTools, toolVersions };
