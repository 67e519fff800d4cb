'use strict';
// One access-log line per request: method, target, status, coding, body bytes, milliseconds.

const MAX_TARGET = 512;

function logAccess(log, method, target, status, coding, bytes, startedAt) {
  if (!log.enabled('info')) return;
  const shown = target && target.length > MAX_TARGET ? target.slice(0, MAX_TARGET) + '...' : target;
  const ms = (performance.now() - startedAt).toFixed(1);
  log.info(`${method} ${shown} ${status} ${coding || '-'} ${bytes} ${ms}ms`);
}

module.exports = { logAccess };
