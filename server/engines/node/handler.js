'use strict';
// The server's responses inside an existing Node app, with the same negotiation, variants,
// ETags, ranges and conditional requests as the CLI:
//   handler(options)  (req, res, next?) for node:http, node:https, node:http2's compat API and
//                     connect/express; with next, requests it has no file for go on to next();
//                     its close() releases what it started.
//   fastifyPlugin     fastify.register(fastifyPlugin, { root, prefix }); missing files go to
//                     fastify's not-found handler; fastify.close() releases what it started.
// Options are startServer's (validated the same way, errors naming the option keys); the
// listening ones are ignored. The /_negotiate explainer is off unless negotiateEndpoint is given:
// inside someone else's app it would answer a path of theirs.

const { normalizeOptions } = require('../../config/options');
const { loggerFor } = require('../../log/logger');
const { createCore } = require('../../site/create-core');
const { sendResponse } = require('./send-response');
const { isRequestTarget } = require('../../http/request-target');
const { ERR_BAD_REQUEST } = require('../../errors');
const { isPreflight } = require('../../decision/cors');

// One core per call: the file and compression caches are shared by every request it serves.
function createResponder(input) {
  const options = normalizeOptions(input, { middleware: true });
  const log = loggerFor(options);
  const core = createCore(options, log);
  return {
    log,
    // Stops what the core started (watches, the start-up scan, deltas written into the cache
    // folder) once the writes under way are done; requests still answered afterwards start
    // nothing new.
    close: () => core.close().then(() => log.drain()),
    // The app's server may pass bytes no request target holds (node:http2 passes those from
    // 0x80 up): a 400, which is no other handler's business either.
    // The connection: node:http2's compatibility API gives each stream a socket of its own.
    decide: (req, target) => (isRequestTarget(target) ? core.decide(req.method, target, req.headers, req.stream?.session ?? req.socket)
      : Promise.resolve(core.errorResponse(ERR_BAD_REQUEST('invalid character in the request target'), req.method === 'HEAD'))),
    // A 404 (no such file) or 405 (a method other than GET/HEAD) is another handler's business
    // when there is one to pass to; so is a CORS preflight (cors: true) of a path with no file,
    // whose request may be for one of the app's own routes, with methods of its own.
    passes: async (d, req, target) => d.status === 404 || d.status === 405 ||
      (d.status === 204 && isPreflight(req.method, req.headers) && (await core.decide('HEAD', target, {})).status === 404),
    // Sends d; mount is the path the app mounted the handler under, which a redirect to a
    // directory's slash URL must keep.
    send(req, res, d, mount) {
      const location = d.headers.location;
      if (mount !== '' && typeof location === 'string' && location.startsWith('/')) {
        d = { ...d, headers: { ...d.headers, location: mount + location } };
      }
      try {
        sendResponse(res, d, req.method === 'HEAD', (outcome) => {
          if (outcome !== null) log.debug(`${req.method} ${req.url}: response ${outcome}`);
        });
      } catch (err) {
        // Only an app that already sent headers on res gets here (send-out released the body):
        // drop this response only.
        log.error(`sending ${req.method} ${req.url} failed: ${err.message}`);
        res.destroy();
      }
    },
  };
}

function handler(options = {}) {
  const responder = createResponder(options);
  function negotiateHandler(req, res, next) {
    // Under express's app.use(path, ...) req.url is relative to req.baseUrl.
    const mount = typeof req.baseUrl === 'string' ? req.baseUrl : '';
    responder.decide(req, req.url).then(async (d) => {
      if (typeof next === 'function' && await responder.passes(d, req, req.url)) next();
      else responder.send(req, res, d, mount);
    }).catch((err) => {
      // decide() and send() never reject, so a later middleware threw from next(): report it
      // rather than leave an unhandled rejection to take the app down.
      responder.log.error(`${req.method} ${req.url}: the next handler threw: ${err.stack || err}`);
      if (!res.headersSent) res.destroy();
    });
  }
  negotiateHandler.close = responder.close;
  return negotiateHandler;
}

// Encapsulated (no skip-override) so that register's prefix applies to its route.
async function fastifyPlugin(fastify, options) {
  // register() hands the plugin its options with fastify's own `prefix` (fastify.prefix has it).
  const settings = { ...options };
  delete settings.prefix;
  const responder = createResponder(settings);
  const prefix = fastify.prefix;
  fastify.addHook('onClose', responder.close);
  fastify.route({
    method: ['GET', 'HEAD'],
    url: '/*',
    exposeHeadRoute: false,
    async handler(request, reply) {
      const raw = request.raw;
      // The raw target, as the core parses it: fastify's params are already decoded.
      const target = raw.url.startsWith(prefix + '/') ? raw.url.slice(prefix.length) : null;
      const d = target === null ? null : await responder.decide(raw, target);
      if (d === null || await responder.passes(d, raw, target)) return reply.callNotFound();
      // The response is written to reply.raw, past fastify's serialisation and onSend hooks.
      reply.hijack();
      responder.send(raw, reply.raw, d, prefix);
      return reply;
    },
  });
}

module.exports = { handler, fastifyPlugin };
