'use strict';
// HTTP/2 conformance: h2spec runs every section strictly (-S) over TLS against the native
// engine, on each TLS transport (node:tls and the C one), and every one of its cases must pass.
// Skipped, with the reason, when h2spec is not installed (bash scripts/system-deps.sh install
// builds it with Go).

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs/promises');
const { startTestServer, makeTempDir, forEachTransport } = require('../helpers/server');
const { H2SPEC_CASES, h2specSkipReason, parseJunitReport, runH2spec } = require('../helpers/h2spec');

// h2spec requests "/" (its -P default) and reads the response in several cases.
const FILES = { 'index.html': '<!doctype html><title>h2spec</title><p>conformance</p>\n' };

// h2spec's message lists the frames it expected, one a line, then what it got.
function describeFailure({ id, section, description, outcome, message }) {
  const lines = message.split('\n');
  const got = lines.pop();
  return `${id} [${section}] ${description}: ${outcome}; expected ${lines.join(' or ') || '?'}, got ${got || 'nothing'}`;
}

test('the h2spec report parser', async (t) => {
  // Shapes h2spec 2.x writes: a passing case, a failing one (its message is expected frames
  // then the actual one, and may echo raw bytes), a skipped one, and escaped attributes.
  const xml = `<?xml version="1.0" encoding="UTF-8"?>
<testsuites>
  <testsuite name="5.1. Stream States" package="http2/5.1" id="5.1" tests="3" skipped="1" failures="0" errors="1">
    <testcase package="http2/5.1" classname="idle: Sends a DATA frame" time="0.0011"></testcase>
    <testcase package="http2/5.1" classname="closed: Sends a DATA frame after sending &#34;RST_STREAM&#34;" time="2.0041">
      <error>GOAWAY Frame (Error Code: STREAM_CLOSED)
Connection closed
PING Frame (opaque_data:h2spec\u0000\u0000)</error>
    </testcase>
    <testcase package="http2/5.1" classname="half closed" time="0"><skipped/></testcase>
  </testsuite>
  <testsuite name="4.1. Frame Format" package="http2/4.1" id="4.1" tests="1" skipped="0" failures="0" errors="0">
    <testcase package="http2/4.1" classname="Sends a frame with unknown type" time="0.0012"/>
  </testsuite>
</testsuites>`;
  const cases = parseJunitReport(xml);
  const table = [
    { id: 'http2/5.1/1', section: '5.1. Stream States', description: 'idle: Sends a DATA frame', outcome: 'passed', message: '' },
    {
      id: 'http2/5.1/2', section: '5.1. Stream States', description: 'closed: Sends a DATA frame after sending "RST_STREAM"', outcome: 'failed',
      message: 'GOAWAY Frame (Error Code: STREAM_CLOSED)\nConnection closed\nPING Frame (opaque_data:h2spec\u0000\u0000)',
    },
    { id: 'http2/5.1/3', section: '5.1. Stream States', description: 'half closed', outcome: 'skipped', message: '' },
    { id: 'http2/4.1/1', section: '4.1. Frame Format', description: 'Sends a frame with unknown type', outcome: 'passed', message: '' },
  ];
  assert.deepEqual(cases, table);
  t.diagnostic(`${cases.length} cases parsed`);
});

forEachTransport((transport) => test('h2spec -S: every case passes against the native engine', { skip: h2specSkipReason(), timeout: 300_000 }, async (t) => {
  const dir = await makeTempDir('negotiate-h2spec-');
  t.after(() => fs.rm(dir, { recursive: true, force: true }));
  const srv = await startTestServer({ engine: 'native', transport, files: FILES });
  t.after(() => srv.close());
  const { cases, output } = await runH2spec({ port: srv.port, dir });
  const failed = cases.filter((c) => c.outcome !== 'passed');
  t.diagnostic(`${cases.length - failed.length}/${cases.length} passed`);
  const summary = failed.map(describeFailure);
  assert.deepEqual(summary, [], `h2spec cases not passed:\n${summary.join('\n')}`);
  assert.equal(cases.length, H2SPEC_CASES, `h2spec ran ${cases.length} cases, expected ${H2SPEC_CASES}:\n${output.slice(-2000)}`);
}));
