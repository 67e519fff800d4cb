'use strict';
// The native HTTP/2 engine shares a connection among its streams: concurrent large responses
// are interleaved frame by frame instead of sent one after the other (RFC 9113 5.3: no stream
// starves), with the windows a default client and a large-window client (browsers, h2load)
// give, bodies in memory (strict turns, one frame each) and streamed from disk (their chunks
// come as the disk gives them: every stream starts before any ends); every body byte-exact.

const test = require('node:test');
const assert = require('node:assert/strict');
const crypto = require('node:crypto');
const { startTestServer } = require('../helpers/server');
const { RawH2Client } = require('../helpers/h2-raw-client');
const { TYPE, FLAG } = require('../helpers/h2-frames');

const SETTINGS_INITIAL_WINDOW_SIZE = 0x4;
const STREAMS = 6;
// Under the server's bufferLimit: a Buffer body; over it: streamed from disk.
const BUFFER_LIMIT = 512 * 1024;
const FILES = {
  'memory.bin': crypto.randomBytes(300 * 1024),
  'streamed.bin': crypto.randomBytes(900 * 1024),
};

let t;
test.before(async () => {
  t = await startTestServer({ engine: 'native', files: FILES, bufferLimit: BUFFER_LIMIT, dynamic: false });
});
test.after(() => t.close());

const WINDOWS = {
  'default windows': { settings: [], connectionIncrement: 0 },
  'large windows': { settings: [[SETTINGS_INITIAL_WINDOW_SIZE, 1 << 30]], connectionIncrement: (1 << 30) - 65535 },
};

for (const file of Object.keys(FILES)) {
  for (const [windowsName, windows] of Object.entries(WINDOWS)) {
    test(`${STREAMS} concurrent requests for ${file} (${windowsName}) are interleaved, each byte-exact`, async () => {
      const c = await RawH2Client.connect(t.port, { settings: windows.settings });
      if (windows.connectionIncrement) c.windowUpdate(0, windows.connectionIncrement);
      // A first request loads the file, so that the others are all answered in one turn.
      c.request(1, `/${file}`);
      assert.ok((await c.response(1)).body.equals(FILES[file]));
      const ids = Array.from({ length: STREAMS }, (_, i) => 3 + 2 * i);
      c.send(...ids.map((id) => c.headersFrames(id, [[':method', 'GET'], [':scheme', 'https'], [':authority', 'localhost'], [':path', `/${file}`]])));
      for (const id of ids) {
        const res = await c.response(id);
        assert.equal(res.status, 200);
        assert.ok(res.body.equals(FILES[file]), `stream ${id}: ${res.body.length} octets, not the file's ${FILES[file].length}`);
      }
      const data = c.frames.filter((f) => f.type === TYPE.DATA && f.streamId !== 1);
      const firstEnd = data.findIndex((f) => f.flags & FLAG.END_STREAM);
      const started = new Set(data.slice(0, firstEnd).map((f) => f.streamId));
      assert.deepEqual([...started].sort((a, b) => a - b), ids, 'every stream had DATA before the first one ended');
      if (file === 'memory.bin') {
        // All answered in one turn: strict turns, one frame each, until the first stream ends.
        const order = data.slice(0, firstEnd).map((f) => f.streamId);
        assert.deepEqual(order.slice(0, STREAMS), ids);
        for (let i = STREAMS; i < order.length; i++) assert.equal(order[i], order[i - STREAMS], `DATA frame ${i}: ${order.join(',')}`);
      }
      await c.close();
    });
  }
}
