'use strict';
// h2spec (github.com/summerwind/h2spec), the HTTP/2 conformance suite: where it is installed,
// running it against a port, and reading its JUnit report. scripts/system-deps.sh installs it.

const fs = require('node:fs');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const { commandPath, runTool } = require('./tools');

// Every case of h2spec 2.x (generic, hpack and http2 sections) with -S (strict cases included).
const H2SPEC_CASES = 146;
// h2spec waits 2 s (its -o default) for each expected frame; a full run that fails every case
// would take about 146 x 2 s, so this bound only stops a wedged run.
const RUN_TIMEOUT_MS = 240_000;

// The h2spec binary: PATH first, then where `go install` puts it. null when neither has it.
function findH2spec() {
  const onPath = commandPath('h2spec');
  if (onPath) return onPath;
  if (!commandPath('go')) return null;
  const gopath = execFileSync('go', ['env', 'GOPATH'], { encoding: 'utf8' }).trim();
  const bin = path.join(gopath, 'bin', 'h2spec');
  return fs.existsSync(bin) ? bin : null;
}

// false when h2spec can run, else the reason to skip (fits node:test's { skip }).
function h2specSkipReason() {
  if (findH2spec()) return false;
  return commandPath('go')
    ? 'h2spec is not installed (bash scripts/system-deps.sh install builds it with go install)'
    : 'h2spec is not installed and Go is missing to build it (bash scripts/system-deps.sh install)';
}

const ENTITIES = { '&lt;': '<', '&gt;': '>', '&amp;': '&', '&quot;': '"', '&apos;': "'" };

function unescapeXml(text) {
  return text.replace(/&(?:lt|gt|amp|quot|apos|#(\d+)|#x([0-9a-f]+));/gi, (m, dec, hex) => {
    if (dec) return String.fromCodePoint(Number(dec));
    if (hex) return String.fromCodePoint(parseInt(hex, 16));
    return ENTITIES[m];
  });
}

function attributes(text) {
  return Object.fromEntries([...text.matchAll(/([\w:-]+)="([^"]*)"/g)].map(([, k, v]) => [k, unescapeXml(v)]));
}

// h2spec's JUnit report as [{ id, section, description, outcome: 'passed'|'failed'|'skipped',
// message }]. id is what h2spec's own spec filter takes ("http2/5.1/3": section package and the
// case's 1-based place in it). The report can hold raw control bytes (frame payloads echoed
// into messages), which XML forbids, so it is read with patterns rather than an XML parser.
function parseJunitReport(xml) {
  const cases = [];
  for (const [, suiteAttrs, body] of xml.matchAll(/<testsuite\b([^>]*)>([\s\S]*?)<\/testsuite>/g)) {
    const suite = attributes(suiteAttrs);
    let index = 0;
    for (const [, caseAttrs, inner = ''] of body.matchAll(/<testcase\b([^>]*?)(?:\/>|>([\s\S]*?)<\/testcase>)/g)) {
      const tc = attributes(caseAttrs);
      const failure = /<(error|failure)\b[^>]*>([\s\S]*?)<\/\1>/.exec(inner);
      cases.push({
        id: `${tc.package ?? suite.package}/${++index}`,
        section: suite.name,
        description: tc.classname,
        outcome: failure ? 'failed' : /<skipped\b/.test(inner) ? 'skipped' : 'passed',
        message: failure ? unescapeXml(failure[2]).trim() : '',
      });
    }
  }
  return cases;
}

// Runs every section strictly over TLS against host:port; resolves { cases, output, code }.
// The report goes to a file in `dir`, which the caller owns.
async function runH2spec({ host = '127.0.0.1', port, dir, timeoutMs = RUN_TIMEOUT_MS }) {
  const bin = findH2spec();
  if (!bin) throw new Error(h2specSkipReason());
  const report = path.join(dir, 'h2spec-report.xml');
  const r = await runTool(bin, ['-t', '-k', '-S', '-h', host, '-p', String(port), '-j', report], { timeoutMs });
  const output = r.stdout.toString('latin1') + r.stderr;
  if (r.code === 'SIGKILL') throw new Error(`h2spec did not finish within ${timeoutMs} ms:\n${output.slice(-4000)}`);
  let xml;
  try {
    xml = await fs.promises.readFile(report, 'latin1');
  } catch {
    throw new Error(`h2spec wrote no report (exit ${r.code}):\n${output.slice(-4000)}`);
  }
  return { cases: parseJunitReport(xml), output, code: r.code };
}

module.exports = { H2SPEC_CASES, findH2spec, h2specSkipReason, parseJunitReport, runH2spec };
