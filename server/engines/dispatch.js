'use strict';
// One request's way through the core, for every engine. A request the engine already refused
// (`refusal`, a RequestError: 431 for a header list past the advertised limit, 400 for a bad
// Host) is answered from it without asking the core; any other is decided. decide() never
// rejects, so a throw from `send` is a failure while sending this one response: it is logged
// here, and `fail` applies the engine's remedy (reset the stream, drop the response or the
// connection).

/**
 * @param {{ decide: Function, errorResponse: Function }} core
 * @param {{ error(msg: string): void }} log
 * @param {{ method: string, target: string, headers: object, refusal?: import('../errors').RequestError | null, connection: object }} request
 *   connection: an object that lives as long as the request's connection (the core counts some
 *   work per connection)
 * @param {(d: object) => void} send
 * @param {(err: Error) => void} fail
 */
function dispatch(core, log, { method, target, headers, refusal = null, connection }, send, fail) {
  const decided = refusal === null ? core.decide(method, target, headers, connection)
    : Promise.resolve(core.errorResponse(refusal, method === 'HEAD'));
  decided.then(send).catch((err) => {
    log.error(`sending ${method} ${target} failed: ${err.stack || err}`);
    fail(err);
  });
}

module.exports = { dispatch };
