'use strict';
// A directory named without its trailing slash answers 301 to the slashed path. The Location is
// built from the normalised path with every segment percent-encoded, so it leads back to the same
// directory whatever its name, and it is never '//...' (a reference to another host).

const test = require('node:test');
const assert = require('node:assert/strict');
const { forEachEngine, startTestServer } = require('../helpers/server');
const { rawTls } = require('../helpers/raw-tls');

// [directory on disk, request target without the slash, expected Location]
const NAMED = [
  ['a?b', '/a%3Fb', '/a%3Fb/'],
  ['c#d', '/c%23d', '/c%23d/'],
  ['e%f', '/e%25f', '/e%25f/'],
  ['g h', '/g%20h', '/g%20h/'],
  ['ü', '/%C3%BC', '/%C3%BC/'],
  ['x/y?z', '/x/y%3Fz?q=1', '/x/y%3Fz/?q=1'],
];

forEachEngine((engine) => {
  test('directory redirects: encoded segments, and never a Location starting with //', async (t) => {
    const files = { 'index.html': 'root index', 'js/index.html': 'js index' };
    for (const [dir] of NAMED) files[`${dir}/index.html`] = `index of ${dir}`;
    const srv = await startTestServer({ engine, files });
    t.after(() => srv.close());

    for (const proto of ['h1', 'h2']) {
      await t.test(`${proto}: folders named with ? # % space and non-ASCII`, async () => {
        for (const [dir, target, location] of NAMED) {
          const res = await srv[proto](target);
          assert.equal(res.status, 301, target);
          assert.equal(res.headers.location, location, target);
          const followed = await srv[proto](location);
          assert.equal(followed.status, 200, location);
          assert.equal(followed.body.toString(), `index of ${dir}`, location);
        }
      });

      await t.test(`${proto}: /js/.. sent as is redirects to /`, async () => {
        for (const [target, location] of [['/js/..', '/'], ['/js/..?q=1', '/?q=1'], ['/js/.', '/js/'], ['//js', '/js/']]) {
          const res = await srv[proto](target);
          assert.equal(res.status, 301, target);
          assert.equal(res.headers.location, location, target);
        }
      });
    }

    await t.test('raw HTTP/1.1 over TLS: /js/.. is not normalised by the client', async () => {
      const res = await rawTls({ port: srv.port, ca: srv.server.certificate, request: 'GET /js/.. HTTP/1.1\r\nHost: localhost\r\n\r\n' });
      assert.equal(res.status, 301);
      assert.deepEqual(res.headers.location, ['/']);
    });
  });
});
