'use strict';
// The native engine's response header blocks use a dynamic table per connection (RFC 7541):
// every block decodes, with real clients and with the Python hpack package, over many requests
// on one connection and across evictions, at the table sizes a client may ask for in its
// SETTINGS (0, 64, 4096, and 0 then 4096 in one frame); a repeated response costs a few
// indexed octets. Clients that are not installed skip their test with the reason.

const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const http2 = require('node:http2');
const { spawnSync } = require('node:child_process');
const { startTestServer } = require('../helpers/server');
const { Decoder } = require('../../native');
const { RawH2Client } = require('../helpers/h2-raw-client');
const { commandPath, toolSkipReason, runTool } = require('../helpers/tools');

const SETTINGS_HEADER_TABLE_SIZE = 0x1;
// 40 files of 4 types, each with its own ETag and Last-Modified: their entries take more than
// a 4096-octet table, so it evicts as a page's files come round.
const TYPES = ['txt', 'css', 'js', 'json'];
const FILES = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`f${i}.${TYPES[i % 4]}`, {
  content: `file ${i}\n`.repeat(i + 1), mtime: 1_700_000_000 + i * 7919,
}]));
const PATHS = [...Object.keys(FILES).map((f) => `/${f}`), '/missing.txt'];
// Table sizes as the client sends them: one SETTINGS frame each.
const SIZES = [[0], [64], [4096], [0, 4096]];
const label = (sizes) => sizes.join(' then ');

let t;
before(async () => {
  t = await startTestServer({ engine: 'native', files: FILES });
});
after(() => t.close());

const expectedStatus = (p) => (p === '/missing.txt' ? '404' : '200');
const expectedBody = (p) => FILES[p.slice(1)]?.content;

function pythonSkip() {
  const r = spawnSync('python3', ['-c', 'import hpack'], { encoding: 'utf8' });
  return r.status === 0 ? false : 'the Python hpack package is not installed (bash scripts/system-deps.sh install, or pip install hpack)';
}
const PYTHON_SKIP = pythonSkip();

// stdin: { size, blocks: [hex] } -> stdout: the decoded lists, latin1 strings.
const PYTHON_DECODE = `
import json, sys
from hpack import Decoder
job = json.load(sys.stdin)
dec = Decoder()
dec.max_allowed_table_size = job['size']
out = [[[n.decode('latin1'), v.decode('latin1')] for n, v in dec.decode(bytes.fromhex(h), raw=True)] for h in job['blocks']]
json.dump(out, sys.stdout)
`;

// Three rounds over every path, ten streams at a time, on one raw connection whose decoder
// (ours, strict about size updates) follows the table sizes sent.
async function rawRounds(sizes) {
  const c = await RawH2Client.connect(t.port, { settings: sizes.map((size) => [SETTINGS_HEADER_TABLE_SIZE, size]), decoderTableSize: sizes[0] });
  for (const size of sizes.slice(1)) c.decoder.setTableSize(size);
  const decoded = [];
  let id = 1;
  for (let round = 0; round < 3; round++) {
    for (let i = 0; i < PATHS.length; i += 10) {
      const batch = PATHS.slice(i, i + 10).map((p) => ({ p, id: (id += 2) }));
      for (const { p, id: s } of batch) c.request(s, p);
      for (const { p, id: s } of batch) {
        const res = await c.response(s);
        assert.equal(res.status, Number(expectedStatus(p)), p);
        if (expectedBody(p) !== undefined) assert.equal(res.body.toString(), expectedBody(p), p);
        decoded.push(res.headers);
      }
    }
  }
  await c.close();
  return { blocks: c.headerBlocks, decoded };
}

for (const sizes of SIZES) {
  test(`raw client, SETTINGS_HEADER_TABLE_SIZE ${label(sizes)}: ${3 * PATHS.length} responses decode, with ours and Python's hpack`, async (context) => {
    const { blocks } = await rawRounds(sizes);
    assert.equal(blocks.length, 3 * PATHS.length);
    // The first block starts with the size updates owed: the smallest, then the final one.
    const updates = { '0': '20', '64': '3f21', '4096': '', '0 then 4096': '203fe11f' }[label(sizes)];
    assert.equal(blocks[0].subarray(0, updates.length / 2).toString('hex'), updates);
    assert.equal(blocks[0][updates.length / 2], expectedStatus(PATHS[0]) === '200' ? 0x88 : 0x8d);
    // A size update (001x xxxx) starts no later block.
    assert.deepEqual(blocks.slice(1).filter((b) => (b[0] & 0xe0) === 0x20), []);
    if (PYTHON_SKIP) {
      context.diagnostic(`not decoded with Python: ${PYTHON_SKIP}`);
      return;
    }
    const r = spawnSync('python3', ['-c', PYTHON_DECODE], {
      input: JSON.stringify({ size: Math.max(...sizes), blocks: blocks.map((b) => b.toString('hex')) }), encoding: 'utf8', maxBuffer: 64 << 20,
    });
    assert.equal(r.status, 0, r.stderr);
    const theirs = JSON.parse(r.stdout);
    const ours = new Decoder();
    for (const size of sizes) ours.setTableSize(size);
    blocks.forEach((b, i) => assert.deepEqual(theirs[i], ours.decode(b), `block ${i}`));
  });
}

test('a response repeated on a connection is the same few indexed octets', async () => {
  const c = await RawH2Client.connect(t.port);
  const fields = [];
  for (let i = 0; i < 30; i++) {
    c.request(1 + 2 * i, '/f5.css');
    fields.push((await c.response(1 + 2 * i)).headers);
  }
  await c.close();
  // By second (Date): the first block of a second adds its Date to the table; from the second
  // block on, every one is the same: :status, content-type, etag, last-modified, cache-control,
  // vary, accept-ranges and date indexed, and content-length a literal.
  const bySecond = new Map();
  c.headerBlocks.forEach((b, i) => bySecond.set(fields[i].date, [...(bySecond.get(fields[i].date) ?? []), b]));
  let repeats = 0;
  for (const blocks of bySecond.values()) {
    for (const b of blocks.slice(2)) assert.equal(b.toString('hex'), blocks[1].toString('hex'));
    if (blocks.length > 1) assert.ok(blocks[1].length <= 16, `${blocks[1].length} octets: ${blocks[1].toString('hex')}`);
    repeats += Math.max(0, blocks.length - 1);
  }
  // 30 requests span at most a few seconds.
  assert.ok(repeats >= 26, `${repeats} repeated blocks`);
});

for (const sizes of SIZES) {
  test(`nghttp -c ${label(sizes)}: ${PATHS.length} responses on one connection`, { skip: toolSkipReason('nghttp', 'nghttp2-client') }, async () => {
    const r = await runTool(commandPath('nghttp'), ['-nv', ...sizes.flatMap((s) => ['-c', String(s)]), ...PATHS.map((p) => t.origin + p)]);
    const out = r.stdout.toString();
    assert.equal(r.code, 0, r.stderr + out.slice(-2000));
    // nghttp ends with GOAWAY NO_ERROR; a block it cannot decode is COMPRESSION_ERROR.
    assert.doesNotMatch(out, /COMPRESSION_ERROR|error_code=(?!NO_ERROR)/);
    assert.equal(out.match(/recv \(stream_id=\d+\) :status: 200$/gm).length, PATHS.length - 1);
    assert.equal(out.match(/recv \(stream_id=\d+\) :status: 404$/gm).length, 1);
  });

  test(`h2load --header-table-size=${sizes[sizes.length - 1]}: 600 requests, 4 in flight, all succeed`, { skip: toolSkipReason('h2load', 'nghttp2-client') }, async () => {
    const r = await runTool(commandPath('h2load'), ['-n', '600', '-c', '1', '-m', '4', `--header-table-size=${sizes[sizes.length - 1]}`, '-H', 'accept-encoding: br',
      ...PATHS.slice(0, 12).map((p) => t.origin + p)]);
    const out = r.stdout.toString();
    assert.equal(r.code, 0, r.stderr);
    assert.match(out, /requests: 600 total, 600 started, 600 done, 600 succeeded, 0 failed, 0 errored, 0 timeout/);
  });

  test(`Node http2 client, headerTableSize ${sizes[sizes.length - 1]}: 120 requests on one session`, async () => {
    const session = http2.connect(t.origin, { ca: t.server.certificate, servername: 'localhost', settings: { headerTableSize: sizes[sizes.length - 1] } });
    session.on('error', () => {});
    try {
      for (let round = 0; round < 3; round++) {
        const results = await Promise.all(PATHS.map((p) => new Promise((resolve, reject) => {
          const stream = session.request({ ':path': p });
          const chunks = [];
          let headers;
          stream.on('response', (h) => { headers = h; });
          stream.on('data', (d) => chunks.push(d));
          stream.on('end', () => resolve({ p, headers, body: Buffer.concat(chunks).toString() }));
          stream.on('error', reject);
        })));
        for (const { p, headers, body } of results) {
          assert.equal(String(headers[':status']), expectedStatus(p), p);
          if (expectedBody(p) !== undefined) assert.equal(body, expectedBody(p), p);
        }
      }
    } finally {
      await new Promise((resolve) => session.close(resolve));
    }
  });
}

test('curl: every file, one after another on one connection', { skip: toolSkipReason('curl', 'curl') }, async () => {
  const urls = PATHS.flatMap((p) => [t.origin + p, '-o', '/dev/null']);
  const r = await runTool(commandPath('curl'), ['-sk', '--http2', '-w', '%{http_version} %{http_code} %{num_connects}\\n', ...urls]);
  assert.equal(r.code, 0, r.stderr);
  const lines = r.stdout.toString().trim().split('\n');
  assert.equal(lines.length, PATHS.length);
  // One connection: every transfer after the first reused it.
  assert.deepEqual(lines.slice(1).filter((l) => !/^2 (200|404) 0$/.test(l)), []);
});
