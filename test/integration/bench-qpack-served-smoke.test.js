'use strict';
// bench:qpack-served (bench/h3/qpack-served.js): the figures from two scrapes of the server's
// metrics, exactly; then end to end with two Chromium loads, checking that both clients ran over
// HTTP/3, that every figure came from the server's counters and that the report was written; and
// the UDP relay that adds delay and loss (bench/h3/lossy-relay.js).
// The end-to-end test skips without Node 22.20+/24 with the QUIC addon built, Chromium,
// certutil, or python3 with aioquic.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const dgram = require('node:dgram');
const { once } = require('node:events');
const { execFile } = require('node:child_process');
const { qpackFigures } = require('../../bench/h3/qpack-served');
const { LossyRelay } = require('../../bench/h3/lossy-relay');
const { waitFor } = require('../helpers/poll');
const { parseSamples } = require('../../bench/h3/metrics-scrape');
const { quicSupport, loadQuic } = require('../../server/engines/listen-h3');
const { chromiumSkipReason } = require('../helpers/browser');
const { toolSkipReason } = require('../helpers/tools');
const { aioquicMissing } = require('../helpers/h3-fetch');

const RUN = path.join(__dirname, '..', '..', 'bench', 'h3', 'qpack-served.js');

const SCRAPE = `# HELP negotiate_qpack_sections_total HTTP/3 field sections.
# TYPE negotiate_qpack_sections_total counter
negotiate_responses_total{status="2xx",protocol="h3",coding="br"} 9
negotiate_responses_total{status="4xx",protocol="h3",coding="none"} 1
negotiate_responses_total{status="2xx",protocol="h2",coding="br"} 50
negotiate_qpack_encoded_bytes_total{stream="request"} 300
negotiate_qpack_encoded_bytes_total{stream="encoder"} 100
negotiate_qpack_decoded_bytes_total{stream="request"} 120
negotiate_qpack_decoded_bytes_total{stream="encoder"} 80
negotiate_qpack_sections_total{direction="response"} 10
negotiate_qpack_sections_total{direction="request"} 10
negotiate_qpack_field_bytes_total{direction="response"} 2000
negotiate_qpack_field_bytes_total{direction="request"} 1000
negotiate_qpack_blocked_sections_total 4
negotiate_qpack_blocked_seconds_total 0.05
negotiate_qpack_blocked_bytes_max 90
`;

test('the figures between two scrapes: each direction\'s sections, octets and ratio; blocking on the request side', () => {
  const before = parseSamples(SCRAPE.replace(/protocol="h3",coding="br"} 9/, 'protocol="h3",coding="br"} 4').replace('blocked_sections_total 4', 'blocked_sections_total 2')
    .replace('{direction="request"} 1000', '{direction="request"} 600'), 'negotiate_');
  assert.equal(before.get('negotiate_qpack_blocked_bytes_max'), 90);
  assert.equal(before.has('# HELP negotiate_qpack_sections_total'), false);
  const figures = qpackFigures(before, parseSamples(SCRAPE, 'negotiate_'));
  assert.deepEqual(figures, {
    h3Responses: 5,
    response: { sections: 0, raw: 0, sectionBytes: 0, encoderBytes: 0, wire: 0, ratio: null, encoder: 'ours' },
    request: {
      sections: 0, raw: 400, sectionBytes: 0, encoderBytes: 0, wire: 0, ratio: 0, encoder: 'the client\'s',
      blocked: 2, blockedMs: 0, meanBlockedMs: 0, maxBlockedBytes: 90,
    },
  });
  const fresh = qpackFigures(new Map(), parseSamples(SCRAPE, 'negotiate_'));
  assert.deepEqual(fresh.response, { sections: 10, raw: 2000, sectionBytes: 300, encoderBytes: 100, wire: 400, ratio: 0.2, encoder: 'ours' });
  assert.deepEqual({ ...fresh.request, blockedMs: Math.round(fresh.request.blockedMs) }, {
    sections: 10, raw: 1000, sectionBytes: 120, encoderBytes: 80, wire: 200, ratio: 0.2, encoder: 'the client\'s',
    blocked: 4, blockedMs: 50, meanBlockedMs: 12.5, maxBlockedBytes: 90,
  });
  const old = parseSamples(SCRAPE.split('\n').filter((l) => !l.includes('decoded_bytes')).join('\n'), 'negotiate_');
  assert.throws(() => qpackFigures(old, old), { code: 'ENOQPACKMETRICS', message: 'the server\'s metrics have no negotiate_qpack_decoded_bytes_total{stream="request"}' });
});

async function whyNot() {
  const support = quicSupport(loadQuic());
  if (!support.ok) return `HTTP/3 does not run here: ${support.reason}`;
  return (await chromiumSkipReason()) || toolSkipReason('certutil', 'libnss3-tools') || aioquicMissing();
}

test('bench:qpack-served --loads 2 --link 20:0: Chromium and aioquic over HTTP/3, straight and through the relay, figures from the server, report written', { timeout: 120_000 }, async (t) => {
  const reason = await whyNot();
  if (reason) return t.skip(reason);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-qpack-served-smoke-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const out = path.join(dir, 'report.md');
  const { code, stdout, stderr } = await new Promise((resolve) => {
    execFile(process.execPath, [RUN, '--loads', '2', '--link', '20:0', '--out', out], { timeout: 100_000 }, (err, so, se) => resolve({ code: err ? err.code ?? err.signal : 0, stdout: so, stderr: se }));
  });
  assert.equal(code, 0, `${stdout}\n${stderr}`);
  const report = fs.readFileSync(out, 'utf8');
  assert.ok(stdout.includes(report), 'the report is printed too');
  assert.match(report, /Chromium: \d+ HTTP\/3 responses \(page protocol on each load: h3, h3\)/);
  assert.match(report, /aioquic: \d+ HTTP\/3 responses \(\d+ files: /);
  // Each client's two directions: sections > 0 and a ratio below 1 (the dynamic tables at work).
  const rows = report.split('\n').filter((l) => /^\| (Chromium|aioquic)[ ,]/.test(l)).map((l) => l.split(' | '));
  const relayed = ', 20 ms RTT, 0% loss';
  assert.deepEqual(rows.map((r) => r[0].slice(2) + ' ' + r[1].split(' ')[0]), ['Chromium', 'aioquic', `Chromium${relayed}`, `aioquic${relayed}`]
    .flatMap((client) => [`${client} requests`, `${client} responses`]));
  for (const r of rows) {
    assert.ok(Number(r[2]) > 0 && Number(r[3]) > 0, r.join('|'));
    assert.ok(Number(r[5]) > 0 && Number(r[5]) < 1, r.join('|'));
  }
  assert.match(report, /Chromium, 20 ms RTT, 0% loss: \d+ HTTP\/3 responses \(page protocol on each load: h3, h3; the relay dropped 0 of \d+ datagrams\)/);
  assert.match(report, /netem: not tried/);
});

test('the lossy relay: datagrams both ways after the round trip, each client its own socket; every one dropped at loss 0.999', async (t) => {
  const echo = dgram.createSocket('udp4');
  const peers = new Set();
  echo.on('message', (msg, from) => {
    peers.add(from.port);
    echo.send(msg, from.port, from.address);
  });
  await new Promise((resolve) => echo.bind(0, '127.0.0.1', resolve));
  t.after(() => echo.close());
  const roundTrip = async (relayPort, client) => {
    const startedAt = performance.now();
    client.send('ping', relayPort, '127.0.0.1');
    const [msg] = await once(client, 'message');
    return { text: msg.toString(), ms: performance.now() - startedAt };
  };
  const relay = new LossyRelay(echo.address().port, { rttMs: 60, loss: 0 });
  const port = await relay.start();
  const clients = [dgram.createSocket('udp4'), dgram.createSocket('udp4')];
  t.after(() => clients.forEach((c) => c.close()));
  for (const client of clients) {
    const { text, ms } = await roundTrip(port, client);
    assert.equal(text, 'ping');
    assert.ok(ms >= 59, `${ms} ms`);
  }
  assert.equal(peers.size, 2, 'one socket towards the server per client');
  assert.deepEqual({ dropped: relay.dropped, relayed: relay.relayed }, { dropped: 0, relayed: 4 });
  relay.close();

  const lossy = new LossyRelay(echo.address().port, { rttMs: 0, loss: 0.999 });
  const lossyPort = await lossy.start();
  t.after(() => lossy.close());
  for (let i = 0; i < 5; i++) clients[0].send('x', lossyPort, '127.0.0.1');
  await waitFor(() => lossy.dropped === 5, { what: 'five drops' });
  assert.equal(lossy.relayed, 0);
  assert.throws(() => new LossyRelay(1, { rttMs: 10, loss: 1 }), RangeError);
  assert.throws(() => new LossyRelay(1, { rttMs: -1, loss: 0 }), RangeError);
});
