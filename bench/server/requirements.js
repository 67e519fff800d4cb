'use strict';
// The system tools a plan needs, checked before anything starts; what is
// missing is reported with the Debian package and the repo's install script.
const fs = require('node:fs/promises');
const path = require('node:path');
const { findOnPath, fileExists: exists } = require('../lib/find-on-path');
const { SERVERS } = require('./plan');
const { BROTLI_STATIC } = require('./nginx');

const TRANSPORT_ADDON = path.resolve(__dirname, '..', '..', 'build', 'Release', 'transport.node');

// Resolves to a list of problems (strings); empty when all is there.
async function checkRequirements(rows, { serverDir }) {
  const needs = [];
  if (rows.some((r) => r.protocol === 'h1')) needs.push({ what: 'wrk', pkg: 'wrk', test: () => findOnPath('wrk') });
  if (rows.some((r) => r.protocol === 'h2')) needs.push({ what: 'h2load', pkg: 'nghttp2-client', test: () => findOnPath('h2load') });
  if (rows.some((r) => SERVERS[r.server].impl === 'nginx')) {
    needs.push({ what: 'nginx', pkg: 'nginx', test: () => findOnPath('nginx') });
    needs.push({ what: 'nginx brotli_static module', pkg: 'libnginx-mod-http-brotli-static', test: () => exists(BROTLI_STATIC) });
  }
  if (rows.some((r) => SERVERS[r.server].impl === 'h2o')) needs.push({ what: 'h2o', pkg: 'h2o', test: () => findOnPath('h2o') });
  const problems = [];
  if (rows.some((r) => r.server === 'floor-native-tls') && !(await exists(TRANSPORT_ADDON))) {
    problems.push(`${TRANSPORT_ADDON} is missing (build the addon: npm install, or npx node-gyp rebuild)`);
  }
  const missingPkgs = [];
  for (const n of needs) {
    if (!(await n.test())) {
      problems.push(`${n.what} is missing (Debian package ${n.pkg})`);
      missingPkgs.push(n.pkg);
    }
  }
  if (missingPkgs.length) {
    problems.push(`install with: sudo apt-get install -y ${missingPkgs.join(' ')}  (or: sudo bash scripts/system-deps.sh install)`);
  }
  if (rows.some((r) => SERVERS[r.server].impl === 'project')) {
    const full = path.join(serverDir, 'index.js');
    if (!(await exists(full))) problems.push(`${full} is missing (choose a server with --server-dir)`);
  }
  return problems;
}

module.exports = { checkRequirements };
