'use strict';
// A generated corpus of HTTP/1.1 request heads, valid and malformed, by class: request line,
// versions, methods, target forms, field syntax, characters, line endings, lengths, framing
// (the request-smuggling classes CL.TE, TE.CL, TE.TE, duplicate and signed lengths) and
// connection handling. `native` is set where the native engine is stricter than llhttp on
// purpose, with `why`; elsewhere both must agree exactly.

const HOST = 'Host: localhost\r\n';
const GET = 'GET /a.txt HTTP/1.1\r\n';

function req(lines, { start = GET, host = true } = {}) {
  return start + (host ? HOST : '') + lines.map((l) => l + '\r\n').join('') + '\r\n';
}

// RFC 9112 9.6: nothing after a request that closes is processed. Node answers the bytes that
// follow with 400 and drops the response to the request itself.
const AFTER_CLOSE = 'the response is sent and what follows a closing request is ignored; Node drops that response and answers the bytes after it with 400';
const BODY_REFUSED = 'no request here takes content: any Transfer-Encoding or non-zero Content-Length is answered and the connection closed (nothing read behind it)';

function buildCorpus() {
  const cases = [];
  const add = (name, text, native, why) => cases.push({ name, bytes: Buffer.from(text, 'latin1'), native, why });

  // Request line and versions.
  add('valid GET', req([]));
  add('HTTP/1.0 without Host', 'GET /a.txt HTTP/1.0\r\n\r\n', '200', AFTER_CLOSE);
  add('HTTP/1.0 with keep-alive', 'GET /a.txt HTTP/1.0\r\nConnection: keep-alive\r\n\r\n');
  add('HTTP/1.1 without Host', 'GET /a.txt HTTP/1.1\r\n\r\n', 'rejected', 'RFC 9112 3.2: an HTTP/1.1 request without Host is 400 (Node\'s HTTP/2 server with allowHTTP1 does not check)');
  for (const v of ['HTTP/2.0', 'HTTP/0.9', 'HTTP/3.0']) add(`version ${v}`, req([], { start: `GET /a.txt ${v}\r\n` }), 'rejected', 'only HTTP/1.1 and HTTP/1.0 are served (505)');
  for (const v of ['HTTP/1.2', 'HTTP/01.1', 'http/1.1', 'HTTP/1.1 ', 'HTTP/1', 'HTTP/1.1x', 'HTTP /1.1', 'HTTP/1.1\t']) add(`version ${JSON.stringify(v)}`, req([], { start: `GET /a.txt ${v}\r\n` }));
  add('HTTP/0.9 request line (no version)', 'GET /a.txt\r\n\r\n', 'rejected', 'HTTP/0.9 is not served: a request line needs a version');
  add('two spaces after method', req([], { start: 'GET  /a.txt HTTP/1.1\r\n' }));
  add('two spaces before version', req([], { start: 'GET /a.txt  HTTP/1.1\r\n' }));
  add('tab after method', req([], { start: 'GET\t/a.txt HTTP/1.1\r\n' }));
  add('leading CRLF before request line', '\r\n' + req([]));
  add('leading bare LF before request line', '\n' + req([]));
  add('PRI preface', 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n');

  // Methods: known ones reach the core (405 with Allow), unknown tokens are refused.
  for (const m of ['POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH', 'TRACE', 'PROPFIND', 'M-SEARCH']) add(`method ${m}`, req([], { start: `${m} /a.txt HTTP/1.1\r\n` }));
  for (const m of ['get', 'Get', 'FOO', 'G@T', 'GET/', '']) add(`method ${JSON.stringify(m)}`, req([], { start: `${m} /a.txt HTTP/1.1\r\n` }));
  add('CONNECT authority-form', 'CONNECT localhost:443 HTTP/1.1\r\nHost: localhost:443\r\n\r\n');

  // Request-target forms and characters.
  add('asterisk-form OPTIONS', req([], { start: 'OPTIONS * HTTP/1.1\r\n' }));
  add('asterisk-form GET', req([], { start: 'GET * HTTP/1.1\r\n' }));
  add('absolute-form for this host', req([], { start: 'GET https://localhost/a.txt HTTP/1.1\r\n' }), 'accepted 200 probe', 'absolute-form naming the Host origin is served as its path (RFC 9112 3.2.2)');
  add('absolute-form for another host', req([], { start: 'GET https://example.com/a.txt HTTP/1.1\r\n' }), 'rejected', 'not a proxy: absolute-form must name the origin in Host');
  add('absolute-form http scheme, no path', req([], { start: 'GET http://localhost HTTP/1.1\r\n' }), 'accepted 200 probe', 'absolute-form naming the Host origin is served as its path (RFC 9112 3.2.2)');
  add('relative target', req([], { start: 'GET a.txt HTTP/1.1\r\n' }));
  add('fragment in target', req([], { start: 'GET /a.txt#x HTTP/1.1\r\n' }));
  add('unusual printable target chars', req([], { start: 'GET /a"<>{}|^` HTTP/1.1\r\n' }));
  for (const c of [0x00, 0x01, 0x09, 0x0b, 0x7f, 0x80, 0xff]) add(`target char 0x${c.toString(16)}`, req([], { start: `GET /a${String.fromCharCode(c)}b HTTP/1.1\r\n` }));
  add('space in query', req([], { start: 'GET /a.txt?a b HTTP/1.1\r\n' }));
  add('target of 9000 bytes', req([], { start: `GET /${'a'.repeat(9000)} HTTP/1.1\r\n` }), 'rejected', 'targets over 8 KiB get 414 as soon as the request line is that long; the rest is not read');
  add('target of 40000 bytes', req([], { start: `GET /${'a'.repeat(40000)} HTTP/1.1\r\n` }));
  add('header section over 32 KiB', req([`X-Big: ${'a'.repeat(33000)}`]));
  add('many small fields under 32 KiB', req(Array.from({ length: 500 }, (_, i) => `X-F${i}: v`)));

  // Field syntax.
  add('space before colon', req(['X-A : b']));
  add('tab before colon', req(['X-A\t: b']));
  add('Host with space before colon', req([], { host: false, start: GET + 'Host : localhost\r\n' }));
  add('obs-fold', req(['X-A: b', ' c']));
  add('obs-fold with tab', req(['X-A: b', '\tc']));
  add('whitespace before first field', req([], { host: false, start: GET + ' Host: localhost\r\n' }));
  add('empty field name', req([': b']));
  add('field without colon', req(['X-A b']));
  add('empty field value', req(['X-A:']));
  add('value with leading and trailing whitespace', req(['X-A: \t b \t']));
  for (const c of '()<>@,;/[]?={}"\\ ') add(`field name char ${JSON.stringify(c)}`, req([`X${c}A: b`]));
  add('field name char 0xff', req(['X\xffA: b']));
  for (const c of [0x00, 0x01, 0x08, 0x0b, 0x0c, 0x0d, 0x1f, 0x7f]) add(`field value char 0x${c.toString(16)}`, req([`X-A: b${String.fromCharCode(c)}c`]));
  for (const c of [0x09, 0x80, 0xa0, 0xff]) add(`field value char 0x${c.toString(16)}`, req([`X-A: b${String.fromCharCode(c)}c`]));
  add('repeated fields and cookies', req(['Cookie: a=1', 'Cookie: b=2', 'X-A: 1', 'x-a: 2']));

  // Line endings.
  add('bare LF after request line', 'GET /a.txt HTTP/1.1\n' + HOST + '\r\n');
  add('bare LF after field', GET + 'Host: localhost\n\r\n');
  add('bare LF as final empty line', GET + HOST + '\n');
  add('bare CR after request line', 'GET /a.txt HTTP/1.1\r' + HOST + '\r\n');
  add('CR CR LF', 'GET /a.txt HTTP/1.1\r\r\n' + HOST + '\r\n');
  add('bare CR in field line', req(['X-A: b\rc']));

  // Host.
  add('duplicate Host', req(['Host: localhost']), 'rejected', 'RFC 9112 3.2: more than one Host is 400');
  add('duplicate Host, other value', req(['Host: example.com']), 'rejected', 'RFC 9112 3.2: more than one Host is 400');
  add('empty Host', req([], { host: false, start: GET + 'Host:\r\n' }));
  add('Host with port', req([], { host: false, start: GET + 'Host: localhost:8443\r\n' }));
  add('Host IPv6 literal', req([], { host: false, start: GET + 'Host: [::1]:8443\r\n' }));
  for (const h of ['a b', 'a/b', 'a@b', 'a:b:c', 'a:8x']) add(`invalid Host ${JSON.stringify(h)}`, req([], { host: false, start: GET + `Host: ${h}\r\n` }), 'rejected', 'RFC 9112 3.2: a Host that is not uri-host [":" port] is 400');

  // Content-Length.
  add('Content-Length: 0', req(['Content-Length: 0']));
  add('Content-Length: 00 with OWS', req(['Content-Length:  00 ']));
  add('POST with Content-Length: 0', req(['Content-Length: 0'], { start: 'POST /a.txt HTTP/1.1\r\n' }));
  add('Content-Length: 5 and body', req(['Content-Length: 5']) + 'hello', 'rejected', BODY_REFUSED);
  add('POST Content-Length: 5 and body', req(['Content-Length: 5'], { start: 'POST /a.txt HTTP/1.1\r\n' }) + 'hello', 'rejected', BODY_REFUSED);
  add('duplicate Content-Length 0', req(['Content-Length: 0', 'Content-Length: 0']));
  add('conflicting Content-Length', req(['Content-Length: 0', 'Content-Length: 5']) + 'hello');
  for (const v of ['+0', '-0', '0 0', '0,0', '0x0', '', ' ', '1e1', '99999999999999999999999', '0\x0b', '\t0', '\t 0 ']) add(`Content-Length ${JSON.stringify(v)}`, req([`Content-Length: ${v}`]));
  // The engine refuses HTAB after the digits as Node 20's llhttp does (request-parser.js); Node
  // 24's llhttp takes it as the trailing OWS it is, so the outcome is stated, not llhttp's.
  for (const v of ['0\t', '0 \t']) add(`Content-Length ${JSON.stringify(v)}`, req([`Content-Length: ${v}`]), 'rejected', 'HTAB after a Content-Length\'s digits is refused, as Node 20\'s llhttp refuses it (Node 24\'s accepts it)');

  // Transfer-Encoding (CL.TE, TE.CL, TE.TE).
  const probe = 'GET /smuggled HTTP/1.1\r\n' + HOST + '\r\n';
  add('TE chunked with empty body', req(['Transfer-Encoding: chunked']) + '0\r\n\r\n', 'rejected', BODY_REFUSED);
  add('TE chunked with smuggled request in body', req(['Transfer-Encoding: chunked']) + `${probe.length.toString(16)}\r\n${probe}\r\n0\r\n\r\n`, 'rejected', BODY_REFUSED);
  add('CL.TE', req(['Content-Length: 6', 'Transfer-Encoding: chunked']) + '0\r\n\r\nX');
  add('TE.CL', req(['Transfer-Encoding: chunked', 'Content-Length: 3']) + '8\r\nSMUGGLED\r\n0\r\n\r\n');
  for (const te of ['xchunked', 'chunked, identity', 'identity', 'gzip', 'gzip, chunked', 'CHUNKED', ' chunked', 'chunked ', '\tchunked', '\x0bchunked', '"chunked"', '']) {
    add(`TE ${JSON.stringify(te)}`, req([`Transfer-Encoding: ${te}`]) + '0\r\n\r\n', te === '\x0bchunked' ? undefined : 'rejected', BODY_REFUSED);
  }
  add('TE.TE two fields', req(['Transfer-Encoding: chunked', 'Transfer-Encoding: x']) + '0\r\n\r\n');
  add('TE with space before colon', req(['Transfer-Encoding : chunked']) + '0\r\n\r\n');
  add('TE as obs-fold continuation', req(['X-A: b', ' Transfer-Encoding: chunked']) + '0\r\n\r\n');
  add('TE in HTTP/1.0', 'GET /a.txt HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n', 'rejected', BODY_REFUSED);

  // Connections.
  add('Connection: close', req(['Connection: close']), '200', AFTER_CLOSE);
  add('Connection: keep-alive, Upgrade', req(['Connection: keep-alive, Upgrade', 'Upgrade: h2c']), 'accepted 200 probe', 'Upgrade is ignored (RFC 9110 7.8); Node answers, then stops reading the connection as HTTP');
  add('Expect: 100-continue without content', req(['Expect: 100-continue']));
  add('pipelined pair', req([]) + req([], { start: 'GET /nope HTTP/1.1\r\n' }));
  add('valid request then garbage', req([]) + 'GARBAGE\r\n\r\n', '200 rejected', 'responses go out in request order, the error last; Node answers the parse error at once and drops the earlier response');
  return cases;
}

// A request the server answers with PROBE_BODY; it asks to close, so the exchange ends there.
const PROBE = Buffer.from(`GET /probe.txt HTTP/1.1\r\n${HOST}Connection: close\r\n\r\n`);
const PROBE_BODY = 'probe\n';

// One word per response: its status, 'probe' for the probe's answer, and 'rejected' for a
// final error that closed the connection. 'accepted' when the probe was answered.
function outcome(responses) {
  const probed = responses.length > 0 && responses[responses.length - 1].body.toString() === PROBE_BODY;
  if (responses.length === 0) return 'rejected'; // closed without a word
  const words = responses.map((r, i) => {
    if (probed && i === responses.length - 1) return 'probe';
    if (!probed && i === responses.length - 1 && r.status >= 400 && /close/i.test(r.headers.connection || '')) return 'rejected';
    return String(r.status);
  });
  return (probed ? 'accepted ' : '') + words.join(' ');
}

module.exports = { buildCorpus, outcome, PROBE, PROBE_BODY };
