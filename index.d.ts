// negotiate-h2's API (server/index.js). The options' type is generated from
// server/config/schema.js (types/options.d.ts); the HPACK and QPACK codecs are
// negotiate-h2/native (native/index.d.ts).
/// <reference types="node" />
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Http2ServerRequest, Http2ServerResponse } from 'node:http2';
import type { ServerOptions } from './types/options';

export type { ServerOptions };

export type LogLevel = 'silent' | 'error' | 'warn' | 'info' | 'debug';

/** The server's line logger (buffered writes to a file descriptor); pass one as `logger`. */
export declare class Logger {
  constructor(options?: { level?: LogLevel; fd?: number });
  enabled(level: LogLevel): boolean;
  error(msg: string): void;
  warn(msg: string): void;
  info(msg: string): void;
  debug(msg: string): void;
  /** A line every level but silent shows. */
  always(msg: string): void;
  /** An info line written as given. */
  raw(msg: string): void;
  /** Resolves once every line so far is written. */
  drain(): Promise<void>;
}

export interface RunningServer {
  /** https://localhost:PORT/ (http:// with https: false). */
  readonly url: string;
  readonly port: number;
  /** The UDP port HTTP/3 runs on (the HTTPS port number), or null when it does not run. */
  readonly http3Port: number | null;
  /** The plain-HTTP redirect port (httpPort), or null. */
  readonly httpPort: number | null;
  readonly httpUrl: string | null;
  /** The PEM certificate served, or null without TLS. */
  readonly certificate: string | Buffer | null;
  /** Where GET /metrics is served (the metrics option: http://HOST:PORT/metrics, https:// off loopback), or null. */
  readonly metricsUrl: string | null;
  /** Graceful: in-flight responses finish, what is left after timeoutMs (default 10000) is closed. */
  close(options?: { timeoutMs?: number }): Promise<void>;
  /** Counters and cache sizes, for monitoring. */
  readonly stats: { readonly requests: number; readonly [name: string]: unknown };
  readonly log: Logger;
}

/** Starts one HTTPS (h2 + http/1.1) or, with https: false, plain HTTP/1.1 server. */
export declare function startServer(options?: ServerOptions): Promise<RunningServer>;

export type Request = IncomingMessage | Http2ServerRequest;
export type Response = ServerResponse | Http2ServerResponse;

/** What handler() returns: the middleware, and close() for when the app stops using it. */
export interface NegotiateHandler {
  (req: Request, res: Response, next?: (err?: unknown) => void): void;
  /**
   * Releases what the handler started (directory watches, the dictionaries' start-up scan, the
   * deltas it writes into the cache folder) once the writes under way are done: afterwards it
   * keeps no timer or watcher and writes nothing more into the cache folder.
   */
  close(): Promise<void>;
}

/**
 * Middleware for node:http, node:https, node:http2's compatibility API and connect/express: with
 * next, requests it has no file for go on to next(). The listening options are ignored.
 */
export declare function handler(options?: ServerOptions): NegotiateHandler;

/** fastify.register(fastifyPlugin, { root, prefix }): missing files go to fastify's not-found handler. */
export declare function fastifyPlugin(fastify: any, options: ServerOptions & { prefix?: string }): Promise<void>;
