'use strict';
// The batched log writer hands fs.write whole lines, at most PIPE_BUF (4096) bytes per write,
// so processes sharing one stdout pipe (--workers) never split each other's lines.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const { Logger } = require('../../server/log/logger');

test('every write is whole lines, in order, at most 4096 bytes unless one line is longer', async (t) => {
  const writes = [];
  t.mock.method(fs, 'write', (fd, buf, offset, length, position, cb) => {
    writes.push(Buffer.from(buf.subarray(offset, offset + length)).toString());
    setImmediate(cb, null, length);
  });
  const log = new Logger({ level: 'info', fd: 99 });
  const lines = [];
  for (let i = 0; i < 300; i++) lines.push(`line ${i} ${'x'.repeat(i % 7 === 0 ? 150 : 90)}`);
  lines.splice(100, 0, 'long ' + 'y'.repeat(5000));
  lines.forEach((line, i) => (i % 2 === 0 ? log.raw(line) : log.info(line)));
  await log.drain();
  assert.equal(writes.join('').replace(/^\S+ info /gm, ''), lines.map((l) => `${l}\n`).join(''));
  for (const w of writes) {
    assert.ok(w.endsWith('\n'), 'ends with a whole line');
    if (Buffer.byteLength(w) > 4096) assert.equal(w.split('\n').length, 2, 'an over-long line goes alone');
  }
  assert.ok(writes.length > 1);
});

// [logger options, what the messages become]
const FORMS = [
  [{}, (time, level, message) => `${time} ${level} ${message}`],
  [{ json: true }, (time, level, message) => JSON.stringify({ time, level, message })],
];

test('json: each line is a { time, level, message } object; raw lines (the access log) stay as given', async (t) => {
  for (const [options, form] of FORMS) {
    const writes = [];
    t.mock.method(fs, 'write', (fd, buf, offset, length, position, cb) => {
      writes.push(Buffer.from(buf.subarray(offset, offset + length)).toString());
      setImmediate(cb, null, length);
    });
    t.mock.timers.enable({ apis: ['Date'], now: Date.parse('2026-11-27T01:02:03.004Z') });
    const log = new Logger({ level: 'info', fd: 99, ...options });
    log.warn('a "quoted"\nmessage');
    log.debug('below the level');
    log.always('listening on https://localhost:1/');
    log.raw('{"path":"/"}');
    await log.drain();
    t.mock.timers.reset();
    t.mock.restoreAll();
    const time = '2026-11-27T01:02:03.004Z';
    const expected = [form(time, 'warn', 'a "quoted"\nmessage'), form(time, 'info', 'listening on https://localhost:1/'), '{"path":"/"}'];
    assert.equal(writes.join(''), expected.map((l) => `${l}\n`).join(''), JSON.stringify(options));
  }
});
