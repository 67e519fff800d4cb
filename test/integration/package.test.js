'use strict';
// The published package, as a user installs it: the tarball of `npm pack` (helpers/packed-install.js)
// holds what a fresh machine needs and nothing else (no tests, results, build outputs, keys, the
// demo's dotfiles or precompressed variants, but the prebuilt addon and the whole demo), and
// installed with --ignore-scripts (no compiler, no install script) it serves br over HTTP/2 on
// the native engine with `npx negotiate-h2 DIR`, on Linux over the C transport and, on a Node with
// OpenSSL 3.5, HTTP/3 too, all from prebuilt addons; it falls back to Node's engine in one line
// when the addon is gone, and its types compile.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { packedInstall, spawnInstalled, run } = require('../helpers/packed-install');
const { createClients } = require('../helpers/clients');
const { REPO_ROOT, PASS_DONE } = require('../helpers/server');
const { tscSkipReason, runTsc } = require('../helpers/tsc');
const { zstdBackend } = require('../../server/compression/zstd');
const { aioquicMissing, h3Fetch } = require('../helpers/h3-fetch');
const { opensslHasQuic } = require('../../native/quic');
const demoPackages = require('../../docs/tools/demo-packages');

const MANIFEST = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8'));
const PREBUILD = `prebuilds/${process.platform}-${process.arch}/negotiate-h2.node`;
// Linux's other addons (the C transport, HTTP/3's QUIC transport), in the prebuilds too.
const LINUX_ADDONS = process.platform === 'linux' ? ['transport', 'quic'].map((name) => `prebuilds/linux-${process.arch}/addons/${name}.node`) : [];
const FORBIDDEN = [
  /^test\//, /^bench\/results\/.*\.json$/, /^build\//, /^native\/build-test\//, /^certs\/.*\.pem$/,
  /^static\/.*\.(br|gz|zst|lzma)$/, /\.negotiate-precompress\.json$/, /^static\/(.+\/)?\./, /^(?!prebuilds\/[a-z0-9]+-[a-z0-9]+\/(negotiate-h2|addons\/transport|addons\/quic)\.node$).*\.node$/,
];
const NEEDED = ['package.json', 'README.md', 'binding.gyp', 'server/index.js', 'tools/precompress/index.js',
  'native/index.js', 'native/include/hpack.h', 'native/src/decoder.c', 'native/binding/addon.cc', 'native/transport.js', 'native/transport/floor.c', 'static/index.html',
  'tools/codings-report/cli.js', 'tools/report/svg-chart.js', 'tools/report/markdown-table.js', PREBUILD, ...LINUX_ADDONS,
  'index.d.ts', 'index.mjs', 'types/options.d.ts', 'native/index.d.ts', 'negotiate.config.schema.json',
  // The demo whole: prepack copies other projects' files into it, which the repository does not hold.
  ...demoPackages.NAMES.map((name) => `static/vendor/${name}`)];
const STACK_LINE = /^\s+at .+\(.+:\d+:\d+\)$/m;
const ZSTD_MISSING = 'zstd is not offered: .+ and zstd-napi cannot be loaded: .+; to fix it use Node\\.js 24 \\(node:zlib has zstd\\), or install zstd-napi with its install script allowed';

// zstd works in the install: node:zlib has it, or zstd-napi (an optional peer the user adds, whose addon
// an install script builds, which --ignore-scripts skipped) was built.
function zstdServed(pkg) {
  return zstdBackend() === 'zlib' || fs.existsSync(path.join(pkg.app, 'node_modules', 'zstd-napi', 'build'));
}

// Each test gets the one install of this process, or skips saying why there is none.
async function installed(t) {
  const pkg = await packedInstall();
  if (pkg.skip !== undefined) t.skip(pkg.skip);
  return pkg.skip !== undefined ? null : pkg;
}

const PAGE = `<!doctype html><title>packed</title>${'<p>hello from an installed package</p>\n'.repeat(200)}`;

// Starts `npx negotiate-h2 site --port 0` in the project (certificates in the temp folder) and
// resolves { port, ca, server } once it listens.
async function serveSite(t, pkg, args = []) {
  const site = path.join(pkg.app, 'site');
  fs.mkdirSync(site, { recursive: true });
  fs.writeFileSync(path.join(site, 'page.html'), PAGE);
  const server = spawnInstalled(pkg.app, ['site', '--port', '0', '--no-precompress', ...args,
    '--certs-dir', path.join(pkg.dir, 'certs'), '--ca-dir', path.join(pkg.dir, 'ca')]);
  t.after(() => server.stop());
  const [, port] = await server.waitFor(/listening on https:\/\/localhost:(\d+)\//);
  // The leaf is signed by the local CA made in --ca-dir (never the user's own config dir).
  return { port: Number(port), ca: fs.readFileSync(path.join(pkg.dir, 'ca', 'ca.pem')), server };
}

async function getBrOverH2(t, pkg, args) {
  const { port, ca, server } = await serveSite(t, pkg, args);
  const clients = createClients({ port, ca });
  t.after(() => clients.closeAll());
  const res = await clients.h2('/page.html', { headers: { 'accept-encoding': 'br, gzip' } });
  return { res, server };
}

test('npm pack: the files a fresh install needs, the prebuilt addon among them, none of the rest', { timeout: 400_000 }, async (t) => {
  const pkg = await installed(t);
  if (pkg === null) return;
  for (const file of pkg.files) assert.equal(FORBIDDEN.find((re) => re.test(file)), undefined, file);
  for (const needed of NEEDED) assert.ok(pkg.files.includes(needed), needed);
  // The README's links into docs/ work where the package is installed.
  const linked = [...fs.readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8').matchAll(/\]\((docs\/[^)#]+)/g)].map((m) => m[1]);
  assert.ok(linked.length > 10);
  assert.deepEqual(linked.filter((file) => !pkg.files.includes(file)), []);
  assert.deepEqual(pkg.files.filter((file) => file.startsWith('docs/tools/')), []);
  assert.equal(MANIFEST.private, undefined, 'publishable');
  assert.equal(MANIFEST.bin['negotiate-h2'], 'server/index.js');
  // Installed without scripts: nothing was compiled, and the addon is the prebuild.
  assert.equal(fs.existsSync(path.join(pkg.installed, 'build')), false);
  const { stdout } = await run(process.execPath, ['-p', "require('node-gyp-build').resolve(require('path').dirname(require.resolve('negotiate-h2/package.json')))"], { cwd: pkg.app });
  assert.equal(stdout.trim(), path.join(pkg.installed, PREBUILD));
});

test('`npx negotiate-h2 --version` prints the version', { timeout: 400_000 }, async (t) => {
  const pkg = await installed(t);
  if (pkg === null) return;
  let out;
  try {
    out = (await run('npx', ['--no-install', 'negotiate-h2', '--version'], { cwd: pkg.app })).stdout;
  } catch (err) {
    if (/unknown option "--version"/.test(err.stderr)) {
      t.skip('this CLI has no --version yet');
      return;
    }
    throw err;
  }
  // The version alone, or after the name.
  assert.match(out, new RegExp(`^(negotiate-h2 )?v?${MANIFEST.version.replace(/\./g, '\\.')}\n$`));
});

test('installed with --ignore-scripts, `npx negotiate-h2 site` serves br over HTTP/2 on the native engine; zstd unbuilt is one warning', { timeout: 400_000 }, async (t) => {
  const pkg = await installed(t);
  if (pkg === null) return;
  const { res, server } = await getBrOverH2(t, pkg);
  assert.equal(res.status, 200);
  assert.equal(res.alpn, 'h2');
  assert.equal(res.headers['content-encoding'], 'br');
  const out = server.output();
  assert.doesNotMatch(out, /HPACK addon cannot be loaded/);
  assert.doesNotMatch(out, STACK_LINE);
  const zstdLines = out.split('\n').filter((line) => /zstd/.test(line));
  if (zstdServed(pkg)) assert.deepEqual(zstdLines, []);
  else {
    assert.equal(zstdLines.length, 1, out);
    assert.match(zstdLines[0], new RegExp(`${ZSTD_MISSING}$`));
  }
});

// The C transport's and the QUIC transport's addons come from the prebuilds: no compiler ran.
test('installed with --ignore-scripts on Linux, --transport c runs on the prebuilt transport, and HTTP/3 on the prebuilt QUIC addon where Node has OpenSSL 3.5', { skip: process.platform !== 'linux' && 'the C transport and HTTP/3 are Linux only', timeout: 400_000 }, async (t) => {
  const pkg = await installed(t);
  if (pkg === null) return;
  assert.equal(fs.existsSync(path.join(pkg.installed, 'build')), false, 'nothing was compiled in the install');
  const { port, ca, server } = await serveSite(t, pkg, ['--transport', 'c']);
  const clients = createClients({ port, ca });
  t.after(() => clients.closeAll());
  const res = await clients.h2('/page.html', { headers: { 'accept-encoding': 'br' } });
  assert.deepEqual([res.status, res.alpn, res.headers['content-encoding']], [200, 'h2', 'br']);
  const out = server.output();
  assert.match(out, /TLS connections on the C transport \(--transport c\)/);
  assert.doesNotMatch(out, STACK_LINE);
  if (!opensslHasQuic(process.versions.openssl)) {
    assert.match(out, /HTTP\/3 off: needs Node 22\.20\+ or 24/);
    return;
  }
  assert.match(out, new RegExp(`HTTP/3 runs on udp \\S+:${port}\n`));
  assert.equal(res.headers['alt-svc'], `h3=":${port}"; ma=86400`);
  const missing = aioquicMissing();
  if (missing) {
    t.diagnostic(`no HTTP/3 request: ${missing}`);
    return;
  }
  const caFile = path.join(pkg.dir, 'ca', 'ca.pem');
  const [viaH3] = await h3Fetch(port, caFile, [{ path: '/page.html', headers: { 'accept-encoding': 'identity' } }]);
  assert.equal(viaH3.status, 200);
  assert.equal(viaH3.body.toString(), PAGE);
});

test('with no loadable addon, the server says so in one line naming the fix and serves on --engine node', { timeout: 400_000 }, async (t) => {
  const pkg = await installed(t);
  if (pkg === null) return;
  const prebuilds = path.join(pkg.installed, 'prebuilds');
  fs.renameSync(prebuilds, `${prebuilds}.off`);
  t.after(() => fs.renameSync(`${prebuilds}.off`, prebuilds));
  const { res, server } = await getBrOverH2(t, pkg);
  assert.equal(res.status, 200);
  assert.equal(res.alpn, 'h2');
  assert.equal(res.headers['content-encoding'], 'br');
  const out = server.output();
  const lines = out.split('\n').filter((line) => /HPACK addon/.test(line));
  assert.equal(lines.length, 1, out);
  assert.match(lines[0], /the native engine's HPACK addon cannot be loaded \(No native build was found for platform=.+\): serving with --engine node; to fix it run: npm rebuild negotiate-h2$/);
  assert.doesNotMatch(out, STACK_LINE);
});

test('the installed package: require and import give the API, and a strict program compiles against its types', { timeout: 400_000 }, async (t) => {
  const pkg = await installed(t);
  if (pkg === null) return;
  const api = 'Object.keys(api).sort().join()';
  const required = await run(process.execPath, ['-e', `const api = require('negotiate-h2'); require('negotiate-h2/native'); console.log(${api})`], { cwd: pkg.app });
  const imported = await run(process.execPath, ['--input-type=module', '-e', `import * as api from 'negotiate-h2'; await import('negotiate-h2/native'); console.log(${api})`], { cwd: pkg.app });
  assert.equal(required.stdout, 'Logger,fastifyPlugin,handler,startServer\n');
  assert.equal(imported.stdout, 'Logger,default,fastifyPlugin,handler,startServer\n');
  const skip = tscSkipReason();
  if (skip) {
    t.skip(skip);
    return;
  }
  const program = path.join(pkg.app, 'api.mts');
  fs.copyFileSync(path.join(REPO_ROOT, 'test', 'fixtures', 'types', 'api.mts'), program);
  assert.deepEqual(await runTsc(program, { cwd: pkg.app }), { code: 0, output: '' });
});

// Every file and folder under dir, with what a write would change (size, mtime, mode), sorted.
function listing(dir) {
  const out = [];
  const walk = (d) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const full = path.join(d, e.name);
      const st = fs.lstatSync(full);
      out.push(`${path.relative(dir, full)} ${st.size} ${st.mtimeMs} ${st.mode}`);
      if (e.isDirectory()) walk(full);
    }
  };
  walk(dir);
  return out.sort();
}

test('`npx negotiate-h2` in a project root with default flags writes nothing into it, nor under the package, and still serves br', { timeout: 400_000 }, async (t) => {
  const pkg = await installed(t);
  if (pkg === null) return;
  fs.writeFileSync(path.join(pkg.app, 'index.html'), `<!doctype html><title>root</title>${'<p>served from the project root</p>\n'.repeat(300)}`);
  const home = fs.mkdtempSync(path.join(pkg.dir, 'home-'));
  const env = { HOME: home, XDG_CONFIG_HOME: path.join(home, 'config'), XDG_CACHE_HOME: path.join(home, 'cache') };
  const before = listing(pkg.app);
  const server = spawnInstalled(pkg.app, ['--port', '0'], { env });
  t.after(() => server.stop());
  const [, port] = await server.waitFor(/listening on https:\/\/localhost:(\d+)\//);
  // The background pass ran over the whole root (node_modules skipped) into the user's cache.
  const [, , cacheDir] = await server.waitFor(PASS_DONE, 60_000);
  assert.ok(cacheDir.startsWith(path.join(home, 'cache', 'negotiate-h2')), cacheDir);
  const clients = createClients({ port: Number(port), ca: fs.readFileSync(path.join(home, 'config', 'negotiate-h2', 'ca.pem')) });
  t.after(() => clients.closeAll());
  const res = await clients.h2('/index.html', { headers: { 'accept-encoding': 'br' } });
  assert.deepEqual([res.status, res.headers['content-encoding']], [200, 'br']);
  await server.stop();
  assert.deepEqual(listing(pkg.app), before, 'the served project, node_modules and the package included, is unchanged');
  assert.ok(fs.existsSync(path.join(home, 'config', 'negotiate-h2', 'certs', 'localhost-cert.pem')), 'the certificate is in the user\'s config directory');
});

test('the installed CLI and API: precompress writes next to a folder\'s files (without zstd when its addon is unbuilt), output into a closed pipe ends quietly, --cors answers preflights, / hints at index.html, handler() names option keys', { timeout: 400_000 }, async (t) => {
  const pkg = await installed(t);
  if (pkg === null) return;
  const dir = path.join(pkg.app, 'built');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'app.js'), `export const lines = [\n${'  "a line of the bundle",\n'.repeat(400)}];\n`);
  // Without zstd (zstd-napi unbuilt and no node:zlib zstd): no .zst, and one line saying so, but
  // the other variants are written.
  const zstd = zstdServed(pkg);
  const precompressed = await run('npx', ['--no-install', 'negotiate-h2', 'precompress', 'built'], { cwd: pkg.app });
  for (const ext of ['.br', '.gz', '.lzma', ...(zstd ? ['.zst'] : [])]) assert.ok(fs.existsSync(path.join(dir, `app.js${ext}`)), `app.js${ext}`);
  assert.equal(fs.existsSync(path.join(dir, 'app.js.zst')), zstd);
  if (!zstd) assert.match(precompressed.stderr, new RegExp(`^precompress: ${ZSTD_MISSING}\n$`));
  // `--help | head -1`: the reader goes away after one line; no EPIPE stack trace.
  const piped = await run('sh', ['-c', 'npx --no-install negotiate-h2 --help | head -1'], { cwd: pkg.app });
  assert.equal(piped.stderr, '');
  assert.match(piped.stdout, /^\S.*\n$/);
  // handler() inside someone's app: its errors name the option key.
  const api = await run(process.execPath, ['-e', "try { require('negotiate-h2').handler({ root: 'nope' }) } catch (err) { console.log(err.message) }"], { cwd: pkg.app });
  assert.equal(api.stdout, `root: ${path.join(pkg.app, 'nope')} is not a directory\n`);
  // --cors over the installed CLI; / of a folder without index.html says what to do.
  const server = spawnInstalled(pkg.app, ['built', '--port', '0', '--no-precompress', '--cors',
    '--certs-dir', path.join(pkg.dir, 'certs'), '--ca-dir', path.join(pkg.dir, 'ca')]);
  t.after(() => server.stop());
  const [, port] = await server.waitFor(/listening on https:\/\/localhost:(\d+)\//);
  const clients = createClients({ port: Number(port), ca: fs.readFileSync(path.join(pkg.dir, 'ca', 'ca.pem')) });
  t.after(() => clients.closeAll());
  const preflight = await clients.h2('/app.js', { method: 'OPTIONS', headers: { 'origin': 'https://other.example', 'access-control-request-method': 'GET', 'access-control-request-headers': 'x-trace' } });
  assert.deepEqual([preflight.status, preflight.headers['access-control-allow-origin'], preflight.headers['access-control-allow-methods'], preflight.headers['access-control-allow-headers']],
    [204, '*', 'GET, HEAD', 'x-trace']);
  const root = await clients.h2('/');
  assert.deepEqual([root.status, root.body.toString()], [404, 'no index.html in the served folder: add one, or list its files with --listing\n']);
});
