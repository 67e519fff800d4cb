'use strict';
// Interop with nghttp2, the HPACK inside Node's http2 module, over real sockets
// (cleartext HTTP/2 with prior knowledge, on 127.0.0.1 and port 0).
const test = require('node:test');
const assert = require('node:assert');
const http2 = require('node:http2');
const net = require('node:net');
const { once } = require('node:events');
const { Encoder, Decoder } = require('../../native');
const h2 = require('../helpers/h2-frames');

// Requests sharing most fields, as a browser's do, so later blocks lean on the dynamic table.
function requests(count) {
  const list = [];
  for (let i = 0; i < count; i++) {
    const fields = [
      [':method', 'GET'],
      [':scheme', 'http'],
      [':authority', 'localhost'],
      [':path', `/assets/file-${i}.js`],
      ['user-agent', 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36'],
      ['accept-language', 'en-US,en;q=0.9'],
      ['cookie', `session=${'s'.repeat(40)}`],
      ['authorization', 'Bearer abc.def'],
    ];
    for (let j = 0; j < 12; j++) fields.push([`x-custom-${j}`, j % 3 === i % 3 ? `changing-${i}-${j}` : `stable-value-${j}`]);
    list.push(fields);
  }
  return list;
}

test('nghttp2 (Node http2 server) decodes what our Encoder writes', { timeout: 20_000 }, async () => {
  const server = http2.createServer();
  const seen = [];
  server.on('stream', (stream, headers, flags, rawHeaders) => {
    const pairs = [];
    for (let i = 0; i < rawHeaders.length; i += 2) pairs.push([rawHeaders[i], rawHeaders[i + 1]]);
    seen.push(pairs);
    stream.respond({ ':status': 204 });
    stream.end();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const socket = net.connect(server.address().port, '127.0.0.1');
  try {
    await once(socket, 'connect');
    const reader = new h2.FrameReader({
      onFrame: (f) => {
        if (f.type === h2.TYPE.SETTINGS && !(f.flags & h2.FLAG.ACK)) socket.write(h2.settingsAck());
        if (f.type === h2.TYPE.GOAWAY) socket.destroy(new Error(`GOAWAY, error code ${f.payload.readUInt32BE(4)}`));
      },
    });
    socket.on('data', (d) => reader.push(d));
    const sent = requests(6);
    const encoder = new Encoder();
    socket.write(Buffer.concat([h2.PREFACE, h2.settings()]));
    const sizes = sent.map((fields, i) => {
      const block = encoder.encode(fields);
      socket.write(h2.headers(1 + 2 * i, block));
      return block.length;
    });
    while (seen.length < sent.length) await once(server, 'stream');
    assert.deepStrictEqual(seen, sent);
    assert.ok(sizes[1] < sizes[0] / 2, `second block (${sizes[1]} bytes) should reuse the first's entries (${sizes[0]})`);
  } finally {
    socket.destroy();
    server.close();
  }
});

test('our Decoder decodes what nghttp2 (Node http2 client) writes', { timeout: 20_000 }, async () => {
  const blocks = [];
  const sockets = new Set();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    const decoder = new Decoder();
    const reader = new h2.FrameReader({
      expectPreface: true,
      onFrame: (f) => {
        if (f.type === h2.TYPE.SETTINGS && !(f.flags & h2.FLAG.ACK)) socket.write(h2.settingsAck());
      },
      onHeaderBlock: (streamId, block) => {
        blocks.push({ size: block.length, headers: decoder.decode(block) });
        server.emit('block');
      },
    });
    socket.write(h2.settings());
    socket.on('data', (d) => reader.push(d));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const client = http2.connect(`http://127.0.0.1:${server.address().port}`);
  client.on('error', () => {}); // the raw server never answers; closing it is expected
  try {
    const sent = requests(6);
    for (const fields of sent) {
      const headers = {};
      for (const [name, value] of fields) if (!name.startsWith(':') || name === ':path') headers[name] = value;
      client.request(headers, { endStream: true }).on('error', () => {});
    }
    while (blocks.length < sent.length) await once(server, 'block');
    blocks.forEach(({ headers }, i) => {
      const byName = new Map(headers);
      for (const [name, value] of sent[i]) {
        if (name === ':authority' || name === ':scheme') continue; // the client fills these from the URL
        assert.strictEqual(byName.get(name), value, `request ${i}: ${name}`);
      }
    });
    assert.ok(blocks[1].size < blocks[0].size / 2, 'nghttp2 reuses its dynamic table, so our decoder had to follow it');
  } finally {
    client.destroy();
    for (const s of sockets) s.destroy();
    server.close();
  }
});
