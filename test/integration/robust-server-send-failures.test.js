'use strict';
// A failure while sending one response (a throw where an engine writes the HTTP/1.1 head, or
// where it sends the HTTP/2 response HEADERS) costs that response only: it is dropped or reset with INTERNAL_ERROR,
// and the process goes on serving. Without the adapters' own
// catch, the throw would be an unhandled rejection, which ends a Node 20 process.

const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const http = require('node:http');
const http2 = require('node:http2');
const { forEachEngine, startTestServer } = require('../helpers/server');
const { FrameWriter } = require('../../server/engines/h2/frame-writer');
const { Http1Connection } = require('../../server/engines/h1/connection');

forEachEngine((engine) => {
  let t;
  before(async () => {
    t = await startTestServer({ engine, files: { 'small.txt': 'ok\n' } });
  });
  after(() => t.close());

  // Makes proto[method] throw on its next call only.
  function throwOnce(proto, method) {
    const original = proto[method];
    proto[method] = function () {
      proto[method] = original;
      throw new Error(`injected ${method} failure`);
    };
    return () => { proto[method] = original; };
  }

  // Node does not export the server-side HTTP/2 stream class; take it from a throwaway server.
  async function serverStreamPrototype() {
    const server = http2.createServer();
    let proto;
    server.on('stream', (stream) => {
      proto = Object.getPrototypeOf(stream);
      stream.respond({ ':status': 204 }, { endStream: true });
    });
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    const client = http2.connect(`http://127.0.0.1:${server.address().port}`);
    await new Promise((resolve, reject) => {
      const req = client.request({ ':path': '/' });
      req.on('response', resolve);
      req.on('error', reject);
      req.end();
    });
    client.close();
    await new Promise((resolve) => server.close(resolve));
    return proto;
  }

  // Where each engine writes an HTTP/1.1 response head: Node's ServerResponse.writeHead(), and
  // the native engine's Http1Connection.startResponse().
  const head1Hook = () => (engine === 'node' ? [http.ServerResponse.prototype, 'writeHead'] : [Http1Connection.prototype, 'startResponse']);

  test('HTTP/1.1: a throw while writing the response head drops that response and the server keeps serving', async () => {
    const restore = throwOnce(...head1Hook());
    try {
      await assert.rejects(t.h1('/small.txt'));
    } finally {
      restore();
    }
    const next = await t.h1('/small.txt');
    assert.equal(next.status, 200);
    assert.equal(next.body.toString(), 'ok\n');
  });

  // Where each engine turns a response descriptor into HEADERS: node:http2's stream.respond(),
  // and the native engine's FrameWriter.headers().
  async function headersHook() {
    return engine === 'node' ? [await serverStreamPrototype(), 'respond'] : [FrameWriter.prototype, 'headers'];
  }

  test('HTTP/2: a throw while sending the response HEADERS resets that stream (INTERNAL_ERROR) and the server keeps serving', async () => {
    const [proto, method] = await headersHook();
    const session = t.connectH2();
    const restore = throwOnce(proto, method);
    try {
      // The clients helper reports the RST_STREAM code; Node's client may report it by name.
      await assert.rejects(t.h2('/small.txt', { session }), /\brst 2\b|NGHTTP2_INTERNAL_ERROR/);
    } finally {
      restore();
    }
    const next = await t.h2('/small.txt', { session });
    assert.equal(next.status, 200);
    assert.equal(next.body.toString(), 'ok\n');
  });
});
