'use strict';
// Safe path resolution: nothing outside the root is ever served, whatever the encoding.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs/promises');
const path = require('node:path');
const { forEachEngine, startTestServer } = require('../helpers/server');

const SECRET = 'TOP SECRET outside the root';

// [request target, allowed statuses]
const ATTACKS = [
  ['/../secret.txt', [400, 404]],
  ['/sub/../../secret.txt', [400, 404]],
  ['/%2e%2e/secret.txt', [400, 404]],
  ['/sub/%2E%2E/%2e%2e/secret.txt', [400, 404]],
  ['/%2e%2e%2fsecret.txt', [400, 404]],
  ['/sub%2f..%2f..%2fsecret.txt', [400, 404]],
  ['/..\\secret.txt', [400, 404]],
  ['/sub\\..\\..\\secret.txt', [400, 404]],
  ['/..%5csecret.txt', [400, 404]],
  ['/%5c..%5csecret.txt', [400, 404]],
  ['/ok.txt%00.html', [400, 404]],
  ['/%00', [400, 404]],
  ['/%c0%ae%c0%ae/secret.txt', [400, 404]],
  ['/%e0%80%ae%e0%80%ae/secret.txt', [400, 404]],
  ['/%c0%af', [400, 404]],
  ['/%zz', [400]],
  ['/%', [400]],
  ['/ok.txt%', [400]],
  ['/link-out.txt', [404]],
  ['/dir-out/secret.txt', [404]],
  ['/.env', [404]],
  ['/.git/config', [404]],
  ['/sub/.hidden', [404]],
  ['/%2eenv', [404]],
  ['/.well-known/security.txt', [404]],
  ['/nope.txt', [404]],
  ['/ok.txt/', [404]],
  ['/' + 'a'.repeat(16 * 1024), [404, 414]],
];

forEachEngine((engine) => {
  test('path resolution', async (t) => {
    const srv = await startTestServer({
      engine,
      files: {
        'ok.txt': 'ok',
        'sub/inner.txt': 'inner',
        'sub/.hidden': 'hidden',
        '.env': 'SECRET=1',
        '.git/config': '[core]',
        '.well-known/security.txt': 'contact',
        'link-in.txt': { symlink: 'sub/inner.txt' },
        'link-out.txt': { symlink: '../secret.txt' },
        'dir-out': { symlink: '..' },
      },
    });
    t.after(() => srv.close());
    await fs.writeFile(path.join(srv.tmp, 'secret.txt'), SECRET);

    for (const proto of ['h1', 'h2']) {
      await t.test(`${proto}: attacks get 400/404/414, never the file`, async () => {
        for (const [target, allowed] of ATTACKS) {
          const res = await srv[proto](target);
          const label = `${target.slice(0, 60)} -> ${res.status}`;
          assert.ok(allowed.includes(res.status), label);
          assert.ok(!res.body.toString().includes(SECRET), label);
          assert.ok(!res.body.toString().includes('SECRET=1'), label);
        }
      });

      await t.test(`${proto}: ordinary paths still work`, async () => {
        for (const [target, body] of [
          ['/ok.txt', 'ok'], ['/ok.txt?../../secret.txt', 'ok'], ['/sub/../ok.txt', 'ok'],
          ['/sub/./inner.txt', 'inner'], ['//sub//inner.txt', 'inner'], ['/%6fk.txt', 'ok'], ['/link-in.txt', 'inner'],
        ]) {
          const res = await srv[proto](target);
          assert.equal(res.status, 200, target);
          assert.equal(res.body.toString(), body, target);
        }
      });
    }

    await t.test('the server is still healthy afterwards', async () => {
      assert.equal((await srv.h2('/ok.txt')).status, 200);
    });
  });
});
