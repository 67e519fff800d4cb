'use strict';
// npm run bench:qpack-served: the figures of the seed's QPACK study (Frindell, QUIC WG, 2017:
// compression ratio, head-of-line blocking delay, maximum decoder buffer) from real served
// HTTP/3 traffic instead of bench/hol's simulation. The demo site (static/, staged and
// precompressed as the browser tests do) on our server with --metrics, a fresh server per
// client so that the "most octets held blocked" mark is that client's: (a) Chromium forced to
// QUIC with the local CA in a temporary NSS database loads the demo page --loads times (a first
// load, reloads, a new navigation) in one browser context, so on one connection; (b) aioquic
// (test/helpers/h3-client.py) fetches every demo file on one connection. The server's QPACK
// counters are read before and after each; the report gives, per client and direction, sections,
// name+value octets, wire octets (sections + encoder stream), ratio and, for the requests our
// decoder read, the sections that waited for inserts, how long, and the most octets held.
// --netem MS tries `tc qdisc add dev lo root netem delay MSms` and repeats both clients under it
// (the qdisc is always removed afterwards). See --help.
const fs = require('node:fs/promises');
const os = require('node:os');
const path = require('node:path');
const { execFile } = require('node:child_process');
const { promisify } = require('node:util');
const { startServer } = require('../../server');
const { quicSupport, loadQuic } = require('../../server/engines/listen-h3');
const { CHROMIUM_PATH, chromiumSkipReason, launchQuicChromium, newSecureContext } = require('../../test/helpers/browser');
const { stageSite, visitMeasured, readVisit, VARIANT, WAIT_MS } = require('../../test/helpers/demo-site');
const { toolSkipReason } = require('../../test/helpers/tools');
const { aioquicMissing, h3Fetch } = require('../../test/helpers/h3-fetch');
const { readMetrics, parseSamples } = require('./metrics-scrape');
const { LossyRelay } = require('./lossy-relay');
const { parseCommandLine, wholeNumber, usageError } = require('../lib/command-line');
const { machineInfo, toolVersion, commandLine } = require('../lib/machine-info');
const { markdownTable } = require('../../tools/report/markdown-table');

const execFileAsync = promisify(execFile);
const DEFAULT_LOADS = 5;
// What the demo page's own fetches ask for; aioquic asks the same.
const ACCEPT_ENCODING = 'gzip, deflate, br, zstd';

const USAGE = `usage: npm run bench:qpack-served -- [options]
  --loads N        Chromium page loads: a first load, N-2 reloads, a new navigation (default ${DEFAULT_LOADS}, at least 2)
  --link MS:P      also run both clients through a UDP relay adding MS of round trip and dropping a
                   fraction P of datagrams each way (bench/h3/lossy-relay.js); may be repeated
  --netem MS       also run both clients with \`tc qdisc add dev lo root netem delay MSms\` (root; removed afterwards)
  --out FILE       where the Markdown report goes (default: printed only)
Needs Node 22.20+ or 24 (the QUIC addon built), Chromium and certutil (libnss3-tools), python3 with aioquic.`;

// "MS:P" -> { rttMs, loss }.
function parseLink(text) {
  const [rtt, loss, ...rest] = text.split(':');
  const link = { rttMs: Number(rtt), loss: Number(loss) };
  if (rest.length > 0 || !Number.isInteger(link.rttMs) || link.rttMs < 0 || !(link.loss >= 0 && link.loss < 1)) {
    throw usageError(`--link ${text}: expected MS:P, a whole number of milliseconds and a loss fraction below 1 (100:0.02)`, USAGE);
  }
  return link;
}

function parseOptions(argv) {
  const values = parseCommandLine(argv, {
    help: { type: 'boolean', short: 'h' }, loads: { type: 'string' }, netem: { type: 'string' }, out: { type: 'string' },
    link: { type: 'string', multiple: true },
  }, USAGE);
  if (values.help) return { help: USAGE };
  return {
    links: (values.link ?? []).map(parseLink),
    loads: wholeNumber(values.loads ?? DEFAULT_LOADS, 'loads', 2, USAGE),
    netemMs: values.netem === undefined ? null : wholeNumber(values.netem, 'netem', 1, USAGE),
    out: values.out ? path.resolve(values.out) : null,
  };
}

async function requirementProblems() {
  const quic = quicSupport(loadQuic());
  const reasons = [
    quic.ok ? null : `HTTP/3 does not run under this Node: ${quic.reason}`,
    await chromiumSkipReason(),
    toolSkipReason('certutil', 'libnss3-tools'),
    aioquicMissing(),
  ];
  return reasons.filter(Boolean); // the skip helpers say "no reason" with null or false
}

// ---- the figures (pure) ----

// The change of one sample between two scrapes (parseSamples maps); a sample the server does not
// have is an error, not 0: a server from before these metrics.
function delta(before, after, key) {
  if (!after.has(key)) throw Object.assign(new Error(`the server's metrics have no ${key}`), { code: 'ENOQPACKMETRICS' });
  return after.get(key) - (before.get(key) ?? 0);
}

/**
 * Both directions' figures between two scrapes of one server. The blocked-bytes mark is the
 * server's since it started (a fresh server per client makes it the client's).
 */
function qpackFigures(before, after) {
  const d = (key) => delta(before, after, key);
  const h3Responses = [...after.keys()].filter((k) => k.startsWith('negotiate_responses_total{') && k.includes('protocol="h3"'))
    .reduce((n, k) => n + d(k), 0);
  const direction = (name, wire, encoder) => {
    const raw = d(`negotiate_qpack_field_bytes_total{direction="${name}"}`);
    const sectionBytes = d(`negotiate_qpack_${wire}_bytes_total{stream="request"}`);
    const encoderBytes = d(`negotiate_qpack_${wire}_bytes_total{stream="encoder"}`);
    return { sections: d(`negotiate_qpack_sections_total{direction="${name}"}`), raw, sectionBytes, encoderBytes,
      wire: sectionBytes + encoderBytes, ratio: raw > 0 ? (sectionBytes + encoderBytes) / raw : null, encoder };
  };
  const blocked = d('negotiate_qpack_blocked_sections_total');
  const blockedSeconds = d('negotiate_qpack_blocked_seconds_total');
  return {
    h3Responses,
    response: direction('response', 'encoded', 'ours'),
    request: {
      ...direction('request', 'decoded', 'the client\'s'),
      blocked, blockedMs: blockedSeconds * 1000, meanBlockedMs: blocked > 0 ? (blockedSeconds * 1000) / blocked : null,
      maxBlockedBytes: after.get('negotiate_qpack_blocked_bytes_max'),
    },
  };
}

const fixed = (x, digits) => (x === null ? '—' : x.toFixed(digits));

function figuresTable(runs) {
  const rows = runs.flatMap(({ client, figures }) => ['request', 'response'].map((dir) => {
    const f = figures[dir];
    const blocking = dir === 'request'
      ? [f.blocked, fixed(f.blockedMs, 2), fixed(f.meanBlockedMs, 2), f.maxBlockedBytes]
      : ['—', '—', '—', '—'];
    return [client, dir === 'request' ? 'requests (client encodes, we decode)' : 'responses (we encode)', f.sections, f.raw,
      `${f.wire} (${f.sectionBytes} + ${f.encoderBytes})`, fixed(f.ratio, 3), ...blocking];
  }));
  return markdownTable([
    { title: 'client' }, { title: 'direction' }, { title: 'sections', align: 'right' }, { title: 'raw octets (name+value)', align: 'right' },
    { title: 'wire octets (sections + encoder stream)', align: 'right' }, { title: 'ratio', align: 'right' },
    { title: 'blocked sections', align: 'right' }, { title: 'blocked ms, total', align: 'right' }, { title: 'blocked ms, mean', align: 'right' },
    { title: 'max blocked octets', align: 'right' },
  ], rows);
}

function renderReport({ runs, machine, tools, startedAt, opts, netem, command }) {
  const lines = [
    '# QPACK on served HTTP/3 traffic: ratio, blocking, decoder buffer',
    '',
    `Generated by \`${command}\` on ${startedAt}.`,
    '',
    '## Figures',
    '',
    figuresTable(runs),
    'Per run: ' + runs.map(({ client, figures, detail }) => `${client}: ${figures.h3Responses} HTTP/3 responses${detail ? ` (${detail})` : ''}`).join('; ') + '.',
    '',
    'Raw octets are names plus values, without RFC 9204\'s 32-octet per-field overhead (as `bench/qpack/ratio.js` counts them);'
      + ' ratio = wire / raw. Blocked: request sections that reached our decoder before the client\'s encoder-stream inserts they'
      + ' reference; the time is from a section\'s arrival to its unblocking; the max is the most octets of blocked sections one'
      + ' connection held at once. The blocking of responses happens in the client\'s decoder, which the server does not see (—).',
    '',
    '## Method',
    '',
    `- The demo site (\`static/\`, staged and precompressed as the browser tests do) on our server (\`startServer\` in the harness`
      + ` process, \`--metrics 127.0.0.1:0\`), a certificate from a temporary local CA; a fresh server per run.`,
    `- Chromium ${tools.chromium ?? '?'} (\`--origin-to-force-quic-on=localhost:PORT\`, the CA in a temporary NSS database):`
      + ` ${opts.loads} loads of the demo page in one context: a first load, ${opts.loads - 2} reloads, a new navigation (\`/?visit=2\`);`
      + ' each waits until the page has measured itself.',
    `- aioquic ${tools.aioquic ?? '?'} (\`test/helpers/h3-client.py\`): every file of the staged site, one request at a time on one`
      + ` connection, \`accept-encoding: ${ACCEPT_ENCODING}\`.`,
    '- The server\'s `/metrics` is read before and after each run (the `negotiate_qpack_*` families, docs/operations.md).',
    ...(opts.links.length === 0 ? [] : ['- Rows with an RTT and a loss went through `bench/h3/lossy-relay.js`: a UDP relay on loopback that'
      + ' delays every datagram by half the RTT each way and drops each with the given probability (independent draws from a seeded'
      + ' stream), in place of netem; the loss recovery is the clients\' and the server\'s own QUIC.']),
    '',
    '## Machine',
    '',
    `${machine.cpuModel}, ${machine.cores} cores (a shared VM: other work ran beside), ${machine.memoryGiB} GiB, ${machine.kernel},`
      + ` Node ${machine.node}. Loopback: no loss and well under a millisecond of delay, so the rows without an RTT show what`
      + ' packet ordering on one host gives, not Frindell\'s figures: his HOL delays and buffers come from RTTs of 10-500 ms and'
      + ' 0-10% loss, which need netem (or a real path, or the relay\'s rows).',
    '',
    `netem: ${netem}`,
    '',
  ];
  return lines.join('\n');
}

// ---- the clients ----

async function chromiumRun(site, port, opts, homeDir) {
  const browser = await launchQuicChromium(site.caDir, homeDir, [`--origin-to-force-quic-on=localhost:${port}`]);
  try {
    const context = await newSecureContext(browser, { ignoreHTTPSErrors: false });
    const page = await context.newPage();
    page.setDefaultTimeout(WAIT_MS);
    const origin = `https://localhost:${port}`;
    const steps = [() => page.goto(`${origin}/`, { waitUntil: 'load' })];
    for (let i = 0; i < opts.loads - 2; i++) steps.push(() => page.reload({ waitUntil: 'load' }));
    steps.push(() => page.goto(`${origin}/?visit=2`, { waitUntil: 'load' }));
    const protocols = [];
    for (const step of steps) {
      await step();
      await visitMeasured(page);
      protocols.push((await readVisit(page)).protocol);
    }
    return `page protocol on each load: ${protocols.join(', ')}`;
  } finally {
    await browser.close();
  }
}

// Every file of the staged site but its precompressed variants and dot files, as URL paths.
async function siteFiles(root) {
  const entries = await fs.readdir(root, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile() && !VARIANT.test(e.name) && !e.name.startsWith('.'))
    .map((e) => `/${path.relative(root, path.join(e.parentPath, e.name)).split(path.sep).join('/')}`)
    .sort();
}

async function aioquicRun(site, port) {
  const files = await siteFiles(site.root);
  const responses = await h3Fetch(port, path.join(site.caDir, 'ca.pem'), files.map((p) => ({ path: p, headers: { 'accept-encoding': ACCEPT_ENCODING } })));
  const statuses = new Map();
  for (const r of responses) statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
  const others = files.filter((p, i) => responses[i].status !== 200);
  return `${files.length} files: ${[...statuses].map(([status, n]) => `${n} × ${status}`).join(', ')}${others.length > 0 ? ` (not 200: ${others.join(', ')})` : ''}`;
}

// One client against a fresh server, straight or through a LossyRelay (link: { rttMs, loss }):
// its QPACK figures. run(port): the client, on the port it is to use.
async function measure(client, site, link, run) {
  const server = await startServer({ root: site.root, certsDir: site.certsDir, caDir: site.caDir, port: 0, host: '127.0.0.1', logLevel: 'silent', metrics: '127.0.0.1:0' });
  const relay = link === null ? null : new LossyRelay(server.port, link);
  try {
    const port = relay === null ? server.port : await relay.start();
    const before = parseSamples(await readMetrics(server.metricsUrl), 'negotiate_');
    const detail = await run(port);
    const after = parseSamples(await readMetrics(server.metricsUrl), 'negotiate_');
    const dropped = relay === null ? '' : `; the relay dropped ${relay.dropped} of ${relay.dropped + relay.relayed} datagrams`;
    return { client, detail: detail + dropped, figures: qpackFigures(before, after) };
  } finally {
    relay?.close();
    await server.close({ timeoutMs: 2000 });
  }
}

const linkLabel = (link) => (link === null ? '' : `, ${link.rttMs} ms RTT, ${Number((link.loss * 100).toPrecision(3))}% loss`);

async function bothClients(site, opts, { suffix = '', link = null } = {}) {
  const home = await fs.mkdtemp(path.join(os.tmpdir(), 'qpack-served-home-'));
  const label = suffix + linkLabel(link);
  try {
    return [
      await measure(`Chromium${label}`, site, link, (port) => chromiumRun(site, port, opts, path.join(home, 'home'))),
      await measure(`aioquic${label}`, site, link, (port) => aioquicRun(site, port)),
    ];
  } finally {
    await fs.rm(home, { recursive: true, force: true });
  }
}

// Runs fn under a netem delay on lo, or says why it could not; the qdisc is always removed.
async function underNetem(ms, fn) {
  try {
    await execFileAsync('tc', ['qdisc', 'add', 'dev', 'lo', 'root', 'netem', 'delay', `${ms}ms`], { timeout: 10_000 });
  } catch (err) {
    return { runs: [], note: `\`tc qdisc add dev lo root netem delay ${ms}ms\` failed: ${(err.stderr || err.message).trim()}; no row with a delay.` };
  }
  try {
    return { runs: await fn(), note: `rows marked "+netem" ran with \`tc qdisc add dev lo root netem delay ${ms}ms\` (both directions of loopback, so ${2 * ms} ms RTT).` };
  } finally {
    await execFileAsync('tc', ['qdisc', 'del', 'dev', 'lo', 'root'], { timeout: 10_000 });
  }
}

async function main() {
  const opts = parseOptions(process.argv.slice(2));
  if (opts.help) return console.log(opts.help);
  const problems = await requirementProblems();
  if (problems.length) throw Object.assign(new Error(`cannot run:\n  ${problems.join('\n  ')}`), { code: 'EREQUIREMENTS' });
  const startedAt = new Date().toISOString();
  const cleanups = [];
  try {
    // stageSite's cleanups are a test's t.after; here they run at the end.
    const site = await stageSite({ after: (fn) => cleanups.push(fn) });
    const runs = await bothClients(site, opts);
    for (const link of opts.links) runs.push(...await bothClients(site, opts, { link }));
    let netem = 'not tried (no --netem).';
    if (opts.netemMs !== null) {
      const delayed = await underNetem(opts.netemMs, () => bothClients(site, opts, { suffix: ' +netem' }));
      runs.push(...delayed.runs);
      netem = delayed.note;
    }
    const tools = {
      chromium: await toolVersion(CHROMIUM_PATH, ['--version'], /Chromium (\S+)/),
      aioquic: await toolVersion('python3', ['-c', 'import aioquic; print("aioquic", aioquic.__version__)'], /aioquic (\S+)/),
    };
    const report = renderReport({ runs, machine: machineInfo(), tools, startedAt, opts, netem, command: commandLine() });
    console.log(report);
    if (opts.out !== null) {
      await fs.writeFile(opts.out, report);
      console.log(`wrote ${path.relative(process.cwd(), opts.out)}`);
    }
  } finally {
    for (const fn of cleanups.reverse()) await fn();
  }
}

if (require.main === module) {
  main().catch((err) => {
    console.error(`bench:qpack-served: ${err.message}`);
    process.exit(err.code === 'EUSAGE' ? 2 : 1);
  });
}

module.exports = { qpackFigures, figuresTable };
