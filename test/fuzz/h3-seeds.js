'use strict';
// Writes the h3-connection fuzz target's seeds (test/fixtures/h3-streams/): valid HTTP/3
// exchanges in the input format of h3-input.js, built with the engine's frame codec and the
// project's QPACK encoder (dynamic table, inserts sent ahead of the sections that use them, or
// after them: a blocked stream). Run again after a change to the format:
//   node test/fuzz/h3-seeds.js

const fs = require('node:fs');
const path = require('node:path');
const { QpackEncoder } = require('../../native/qpack');
const { FRAME, encodeFrame } = require('../../server/engines/h3/frames');
const { encodeVarint } = require('../../server/engines/h3/varint');
const { encodeSettings } = require('../../server/engines/h3/settings');
const { HTTP3 } = require('../../server/config/limits');
const { STREAM, ACTION, encodeRecords } = require('./h3-input');

const SEED_DIR = path.join(__dirname, '..', 'fixtures', 'h3-streams');
const CLIENT_SETTINGS = { qpackMaxTableCapacity: 4096, qpackBlockedStreams: 16, maxFieldSectionSize: 65536 };

// A client: its three unidirectional streams opened with their types (control with SETTINGS),
// and requests whose QPACK inserts go on the encoder stream first unless `blocked`.
class SeedClient {
  records = [];
  #encoder = new QpackEncoder({ maxTableCapacity: HTTP3.settings.qpackMaxTableCapacity, maxBlockedStreams: HTTP3.settings.qpackBlockedStreams });

  constructor({ settings = CLIENT_SETTINGS } = {}) {
    this.add(STREAM.A, Buffer.concat([encodeVarint(0x00), encodeFrame(FRAME.SETTINGS, encodeSettings(settings))]));
    this.add(STREAM.B, encodeVarint(0x02));
    this.add(STREAM.C, encodeVarint(0x03));
  }

  add(slot, bytes, { action = ACTION.DATA, read = false, turn = false } = {}) {
    this.records.push({ slot, action, read, turn, bytes });
    return this;
  }

  // HEADERS for request slot n (stream id 4n); fields beyond the four pseudo-fields in `extra`.
  headers(n, path, extra = [], { method = 'GET', blocked = false } = {}) {
    return this.section(n, [[':method', method], [':scheme', 'https'], [':authority', 'localhost'], [':path', path], ...extra], blocked);
  }

  // A HEADERS frame of these fields and, when blocked, the inserts it needs (sent later).
  section(n, fields, blocked = false) {
    const { section, encoderStream } = this.#encoder.encode(4 * n, fields);
    const frame = encodeFrame(FRAME.HEADERS, section);
    if (encoderStream.length === 0) return [frame];
    if (blocked) return [frame, encoderStream];
    this.add(STREAM.B, encoderStream);
    return [frame];
  }

  request(n, path, extra = [], options = {}) {
    const [frame, late] = this.headers(n, path, extra, options);
    this.add(STREAM.REQUEST + n, frame, { action: options.body ? ACTION.DATA : ACTION.FIN });
    if (late) this.add(STREAM.B, late, { turn: true });
    if (options.body) this.add(STREAM.REQUEST + n, encodeFrame(FRAME.DATA, options.body), { action: ACTION.FIN });
    return this;
  }

  // Event-loop turns (empty records on request stream 0): the core answers meanwhile.
  turns(n) {
    for (let i = 0; i < n; i++) this.add(STREAM.REQUEST, Buffer.alloc(0), { turn: true });
    return this;
  }

  bytes() {
    return encodeRecords(this.records);
  }
}

const SEEDS = {
  'get': () => new SeedClient().request(0, '/hello.txt'),
  'dynamic-table': () => new SeedClient()
    .request(0, '/index.html', [['accept-encoding', 'gzip, br'], ['user-agent', 'seed/1']])
    .add(STREAM.REQUEST, Buffer.alloc(0), { read: true, turn: true })
    .request(1, '/index.html', [['accept-encoding', 'gzip, br'], ['user-agent', 'seed/1']])
    .request(2, '/dir/a.txt', [['accept-encoding', 'gzip, br'], ['user-agent', 'seed/1']], { method: 'HEAD' }),
  'blocked-stream': () => new SeedClient().request(0, '/hello.txt', [['x-seed', 'blocked']], { blocked: true }),
  'range-conditional': () => new SeedClient()
    .request(0, '/hello.txt', [['range', 'bytes=2-9']])
    .request(1, '/hello.txt', [['if-none-match', '"x"'], ['if-modified-since', 'Sat, 01 Jan 2000 00:00:00 GMT']])
    .request(2, '/dir/'),
  'post-body-trailers': () => {
    const c = new SeedClient();
    const [frame] = c.headers(0, '/hello.txt', [['content-length', '5'], ['content-type', 'text/plain']], { method: 'POST' });
    const [trailers] = c.section(0, [['x-checksum', 'abc']]);
    return c.add(STREAM.REQUEST, Buffer.concat([frame, encodeFrame(FRAME.DATA, Buffer.from('ab')), encodeFrame(FRAME.DATA, Buffer.from('cde'))]))
      .add(STREAM.REQUEST, trailers, { action: ACTION.FIN })
      .request(1, '/missing', [], { method: 'POST', body: Buffer.from('x') });
  },
  'big-backpressure-reset': () => new SeedClient()
    .request(0, '/big.bin')
    .request(1, '/big.bin')
    .turns(20)
    .add(STREAM.REQUEST, Buffer.alloc(0), { read: true, turn: true })
    .add(STREAM.REQUEST, Buffer.alloc(0), { action: ACTION.STOP, turn: true })
    .add(STREAM.REQUEST + 1, Buffer.alloc(0), { action: ACTION.RESET, read: true }),
  'control-frames-goaway': () => new SeedClient()
    .add(STREAM.A, Buffer.concat([encodeFrame(FRAME.MAX_PUSH_ID, encodeVarint(8)), encodeFrame(0x21, Buffer.from('grease')), encodeFrame(FRAME.CANCEL_PUSH, encodeVarint(2))]))
    .request(0, '/hello.txt')
    .add(STREAM.REQUEST + 1, encodeFrame(0x40, Buffer.from('unknown')))
    .request(1, '/dir/a.txt')
    .add(STREAM.A, encodeFrame(FRAME.GOAWAY, encodeVarint(8)), { turn: true }),
  'no-dynamic-table': () => new SeedClient({ settings: { qpackMaxTableCapacity: 0, qpackBlockedStreams: 0, maxFieldSectionSize: 1 << 20 } })
    .request(0, '/hello.txt', [['accept-encoding', 'identity']]),
};

function main() {
  fs.mkdirSync(SEED_DIR, { recursive: true });
  for (const [name, build] of Object.entries(SEEDS)) fs.writeFileSync(path.join(SEED_DIR, name), build().bytes());
  console.log(`${Object.keys(SEEDS).length} seeds in ${path.relative(process.cwd(), SEED_DIR)}`);
}

main();
