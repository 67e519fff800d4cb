'use strict';
// NameWatch's hot-directory rule: a directory whose names change faster than HOT_EVENTS a
// second loses its watch (its entries fall back to a check per request) for COOL_MS.
const test = require('node:test');
const assert = require('node:assert');
const { EventEmitter } = require('node:events');
const { NameWatch, HOT_EVENTS, COOL_MS } = require('../../server/files/name-watch');

function setup() {
  const clock = { t: 0 };
  const watchers = new Map();
  const watch = (dir, options, listener) => {
    const w = Object.assign(new EventEmitter(), { closed: false, listener, close() { this.closed = true; } });
    watchers.set(dir, w);
    return w;
  };
  const stale = [];
  const names = new NameWatch({ maxDirs: 10, onStale: (e) => stale.push(e), onError: assert.fail, watch, now: () => clock.t });
  const entry = { watched: null };
  const since = names.tick();
  names.track(entry, [['/r', 'f'], ['/r/f', 'x.js']], since);
  return { clock, watchers, stale, names, entry };
}

const cases = [
  // [what, events, spread over ms, watch closed]
  ['HOT_EVENTS within a second keep the watch', HOT_EVENTS, 900, false],
  ['one more within a second closes it', HOT_EVENTS + 1, 900, true],
  ['the same number spread over more than a second keep it', HOT_EVENTS + 1, 1500, false],
];

for (const [what, events, spreadMs, closed] of cases) {
  test(`name watch: ${what}`, () => {
    const { clock, watchers, names, entry, stale } = setup();
    const w = watchers.get('/r/f');
    for (let i = 0; i < events; i++) {
      clock.t = (i * spreadMs) / events;
      w.listener('rename', 'other.js');
    }
    assert.equal(w.closed, closed);
    assert.equal(names.dirs.has('/r/f'), !closed);
    assert.equal(entry.watched === null, closed, 'a cooled directory leaves its entries unwatched');
    assert.equal(stale.length, closed ? 1 : 0);
  });
}

test('name watch: a hot directory is not watched again until COOL_MS have passed', () => {
  const { clock, watchers, names, entry } = setup();
  const w = watchers.get('/r/f');
  for (let i = 0; i <= HOT_EVENTS; i++) w.listener('change', 'x.js');
  assert.equal(w.closed, true);
  clock.t = COOL_MS - 1;
  assert.equal(names.track(entry, [['/r', 'f'], ['/r/f', 'x.js']], names.tick()), false);
  assert.equal(entry.watched, null, 'still cooling: checked per request');
  clock.t = COOL_MS;
  names.track(entry, [['/r', 'f'], ['/r/f', 'x.js']], names.tick());
  assert.notEqual(entry.watched, null);
  assert.notEqual(watchers.get('/r/f'), w, 'a new watch');
  assert.equal(names.track(entry, [['/r', 'f'], ['/r/f', 'x.js']], names.tick()), true, 'trusted again');
});
