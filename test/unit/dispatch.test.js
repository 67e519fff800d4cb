'use strict';
// server/engines/dispatch.js against a fake core: refusals skip decide(), a throw while sending is logged and failed.

const test = require('node:test');
const assert = require('node:assert/strict');
const { dispatch } = require('../../server/engines/dispatch');
const { ERR_BAD_HOST, ERR_HEADER_LIST_TOO_LARGE } = require('../../server/errors');

function fakeCore() {
  const calls = [];
  return {
    calls,
    decide: (method, target) => { calls.push(['decide', method, target]); return Promise.resolve({ status: 200 }); },
    errorResponse: (err, isHead) => { calls.push(['errorResponse', err.status, isHead]); return { status: err.status }; },
  };
}

const run = (request, send) => new Promise((resolve) => {
  const core = fakeCore();
  const errors = [];
  dispatch(core, { error: (m) => errors.push(m) }, request, (d) => { send(d); resolve({ core, errors, d, failed: null }); },
    (err) => resolve({ core, errors, failed: err.message }));
});

test('a request is decided; a refused one is answered from its refusal without asking the core', async () => {
  const cases = [
    [{ method: 'GET', target: '/a', headers: {} }, [['decide', 'GET', '/a']], 200],
    [{ method: 'HEAD', target: '/a', headers: {}, refusal: ERR_HEADER_LIST_TOO_LARGE() }, [['errorResponse', 431, true]], 431],
    [{ method: 'GET', target: '/a', headers: {}, refusal: ERR_BAD_HOST('bad') }, [['errorResponse', 400, false]], 400],
  ];
  for (const [request, calls, status] of cases) {
    const { core, d, errors } = await run(request, () => {});
    assert.deepEqual([core.calls, d.status, errors], [calls, status, []]);
  }
});

test('a throw while sending is logged once with the request and failed to the engine', async () => {
  const { errors, failed } = await run({ method: 'GET', target: '/x', headers: {} }, () => { throw new Error('socket gone'); });
  assert.equal(failed, 'socket gone');
  assert.equal(errors.length, 1);
  assert.match(errors[0], /^sending GET \/x failed: Error: socket gone/);
});
