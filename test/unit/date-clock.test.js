'use strict';
// server/engines/date-clock.js: one object a second, a new one when the second turns or the clock goes back.

const test = require('node:test');
const assert = require('node:assert/strict');
const { currentDate } = require('../../server/http/date-clock');

test('the same object all through a second, a new one at the next second and when the clock is set back', (t) => {
  t.mock.timers.enable({ apis: ['Date'], now: 1_800_000_000_000 });
  const first = currentDate();
  assert.deepEqual({ ...first }, { second: 1_800_000_000, text: 'Fri, 15 Jan 2027 08:00:00 GMT', nextAt: 1_800_000_001_000 });
  t.mock.timers.tick(999);
  assert.equal(currentDate(), first);
  t.mock.timers.tick(1);
  const next = currentDate();
  assert.deepEqual([next.second, next.text], [1_800_000_001, 'Fri, 15 Jan 2027 08:00:01 GMT']);
  t.mock.timers.setTime(1_799_999_990_500);
  assert.deepEqual([currentDate().second, currentDate().text], [1_799_999_990, 'Fri, 15 Jan 2027 07:59:50 GMT']);
});
