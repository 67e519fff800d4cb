'use strict';
// The server's metrics (docs/operations.md lists them): the Registry with every family defined
// once, and the hooks the engines call. Each protocol has its Meter with its cells resolved up
// front, so recording a response is a few increments of plain numbers. NO_METRICS has the same
// shape and does nothing: the cost of metrics that are off is one empty call per response.
// What other layers already count (the compression cache, the compression budget) is read
// from core.stats at scrape time rather than counted twice.

const { Registry } = require('./registry');
const { CODINGS } = require('../compression/codings');

const PROTOCOLS = ['h1', 'h2', 'h3'];
const STATUS_CLASSES = ['1xx', '2xx', '3xx', '4xx', '5xx'];
// Every coding a response can have; 'none' for those with no representation (errors,
// redirects), 'other' for anything else, so that a label value never comes from a request.
const CODING_LABELS = ['identity', ...CODINGS, 'dcb', 'dcz', 'none', 'other'];
const DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const HANDSHAKE_DROPS = ['deadline', 'over_cap', 'tls_error'];
const COMPRESSION_USES = ['cache', 'stream'];

const byName = (names, make) => Object.fromEntries(names.map((name) => [name, make(name)]));

function defineFamilies(registry) {
  return {
    responses: registry.counter('negotiate_responses_total', 'Responses finished, by status class, protocol and content coding.', ['status', 'protocol', 'coding']),
    sent: registry.counter('negotiate_sent_bytes_total', 'Body bytes sent, by content coding.', ['coding']),
    saved: registry.counter('negotiate_saved_bytes_total', 'Body bytes saved against identity (identity size minus bytes sent) by complete 200 responses, by content coding; dcb and dcz too, against identity.', ['coding']),
    deltas: registry.counter('negotiate_dictionary_deltas_total', 'Dictionary-compressed responses (RFC 9842 deltas, 200 and 206) sent, by coding.', ['coding']),
    variants: registry.counter('negotiate_variant_responses_total', 'Complete 200 responses in a compressed coding: result="hit" from a stored precompressed variant, result="miss" compressed on the fly.', ['result']),
    compressCache: registry.counter('negotiate_compress_cache_requests_total', 'Lookups of the in-memory cache of on-the-fly compressions, by result.', ['result']),
    compressions: registry.counter('negotiate_compressions_total', 'On-the-fly compressions started, by use (cache: whole files; stream: files compressed while they stream).', ['use']),
    compressionSeconds: registry.counter('negotiate_compression_slot_seconds_total', 'Wall-clock seconds compressions held a thread-pool slot, by use (not CPU time; a streamed compression holds its slot while the client reads).', ['use']),
    connections: registry.gauge('negotiate_open_connections', 'Client connections open now, by protocol (after the TLS handshake).', ['protocol']),
    streams: registry.gauge('negotiate_open_streams', 'Responses being sent now (HTTP/2 streams, HTTP/1.1 exchanges) whose body has not all gone out, by protocol.', ['protocol']),
    handshakeDrops: registry.counter('negotiate_handshake_drops_total', 'Connections dropped before their TLS handshake finished, by reason (deadline: not within handshakeTimeout; over_cap: too many unfinished; tls_error: the handshake failed).', ['reason']),
    floodCloses: registry.counter('negotiate_flood_closes_total', 'Connections closed for going past a flood limit (HTTP/2 ENHANCE_YOUR_CALM), by protocol.', ['protocol']),
    refusals: registry.counter('negotiate_refusals_total', 'Requests answered with a 4xx status, by status and reason (the refusal\'s error code; "other" for 4xx without one, such as 405, 406, 412 and 416).', ['status', 'reason']),
    qpackBytes: registry.counter('negotiate_qpack_encoded_bytes_total', 'Octets the HTTP/3 QPACK encoder wrote for response header sections, by stream (request: HEADERS frame payloads; encoder: dynamic-table instructions on the encoder stream).', ['stream']),
    qpackDecoded: registry.counter('negotiate_qpack_decoded_bytes_total', 'Octets the HTTP/3 QPACK decoder read for request field sections, by stream (request: HEADERS frame payloads, trailers included; encoder: the client\'s dynamic-table instructions on its encoder stream).', ['stream']),
    qpackSections: registry.counter('negotiate_qpack_sections_total', 'HTTP/3 field sections, by direction (response: encoded by the server; request: received from clients, trailers included).', ['direction']),
    qpackFieldBytes: registry.counter('negotiate_qpack_field_bytes_total', 'Name and value octets of HTTP/3 field sections, without the 32-octet per-field overhead of the table size (RFC 9204 3.2.1), by direction (response: before encoding; request: once decoded); the encoded or decoded bytes over these are the compression ratio.', ['direction']),
    qpackBlocked: registry.counter('negotiate_qpack_blocked_sections_total', 'HTTP/3 request field sections that arrived before the encoder-stream inserts they reference, and so waited in the QPACK decoder.'),
    qpackBlockedSeconds: registry.counter('negotiate_qpack_blocked_seconds_total', 'Seconds HTTP/3 request field sections waited for encoder-stream inserts, from their arrival to the insert that unblocked them (one whose stream was reset first adds nothing).'),
    qpackBlockedMax: registry.gauge('negotiate_qpack_blocked_bytes_max', 'The most octets of blocked request field sections one HTTP/3 connection has held at once, since the server started (a high-water mark).'),
    duration: registry.histogram('negotiate_request_duration_seconds', 'Time from a request reaching the core to its response having all gone out, by protocol.', ['protocol'], DURATION_BUCKETS),
  };
}

// One protocol's cells. finished() runs once per response, from send-out.js.
class Meter {
  constructor(families, protocol, now) {
    this.now = now;
    this.refusals = families.refusals;
    this.responses = STATUS_CLASSES.map((status) => byName(CODING_LABELS, (coding) => families.responses.cell(status, protocol, coding)));
    this.sent = byName(CODING_LABELS, (coding) => families.sent.cell(coding));
    this.saved = byName(CODING_LABELS, (coding) => families.saved.cell(coding));
    this.deltas = { dcb: families.deltas.cell('dcb'), dcz: families.deltas.cell('dcz') };
    this.variantHit = families.variants.cell('hit');
    this.variantMiss = families.variants.cell('miss');
    this.streams = families.streams.cell(protocol);
    this.floods = families.floodCloses.cell(protocol);
    this.duration = families.duration.cell(protocol);
    this.reasons = new Map(); // 4xx status -> reason -> cell
  }

  // A response whose body goes on after start(): open until finished().
  opened() {
    this.streams.value++;
  }

  closed() {
    this.streams.value--;
  }

  // d: the core's descriptor; outcome and sent as in send-out.js's finished(); startedAt:
  // performance.now() when the request reached the core.
  finished(d, isHead, outcome, sent, startedAt) {
    const status = d.status;
    const coding = Object.hasOwn(this.sent, d.coding) ? d.coding : (d.coding === null ? 'none' : 'other');
    const byCoding = this.responses[Math.min(4, Math.max(0, Math.floor(status / 100) - 1))];
    byCoding[coding].value++;
    this.sent[coding].value += sent;
    if (status === 200 && outcome === null && !isHead && d.identitySize !== null) {
      this.saved[coding].value += d.identitySize - sent;
      if (d.source === 'precompressed') this.variantHit.value++;
      else if (d.source === 'dynamic') this.variantMiss.value++;
    }
    // By coding: a range of a delta (206) is no prebuilt descriptor and has no source.
    const delta = this.deltas[coding];
    if (delta !== undefined && !isHead && (status === 200 || status === 206)) delta.value++;
    if (status >= 400 && status < 500) this.refused(status, d.reason ?? 'other');
    this.duration.observe((this.now() - startedAt) / 1000);
  }

  // reason: a RequestError code (a constant of the server's source) or 'other'.
  refused(status, reason) {
    let byReason = this.reasons.get(status);
    if (byReason === undefined) this.reasons.set(status, byReason = new Map());
    let cell = byReason.get(reason);
    if (cell === undefined) byReason.set(reason, cell = this.refusals.cell(String(status), reason));
    cell.value++;
  }

  floodClosed() {
    this.floods.value++;
  }
}

// One HTTP/3 connection's QPACK decoder, counted: the octets it reads, the fields they decode
// to, and the sections it holds while they wait for inserts. The octets held at once are this
// connection's, so the high-water mark is per connection (the most any one has held).
class DecoderMeter {
  #cells;
  #now;
  #waiting = new Map(); // stream id -> { bytes, since } of a blocked section
  #held = 0;

  constructor(cells, now) {
    this.#cells = cells;
    this.#now = now;
  }

  /** A request field section of `bytes` octets on stream id; fields: what it decoded to, or null when it waits. */
  section(id, bytes, fields) {
    const c = this.#cells;
    c.sections.value++;
    c.sectionBytes.value += bytes;
    if (fields !== null) {
      this.#decoded(fields);
      return;
    }
    c.blocked.value++;
    this.#waiting.set(id, { bytes, since: this.#now() });
    this.#held += bytes;
    if (this.#held > c.blockedMax.value) c.blockedMax.value = this.#held;
  }

  /** `bytes` octets of the peer's encoder stream, and the sections they unblocked (QpackDecoder.feedEncoder's answer). */
  encoderStream(bytes, unblocked) {
    this.#cells.encoderBytes.value += bytes;
    if (unblocked.length === 0) return;
    const at = this.#now();
    for (const { streamId, headers } of unblocked) {
      this.#cells.blockedSeconds.value += (at - this.#release(streamId)) / 1000;
      this.#decoded(headers);
    }
  }

  /** Stream id was reset before its header section was decoded: a section it had waiting is dropped. */
  cancelled(id) {
    if (this.#waiting.has(id)) this.#release(id);
  }

  // Forgets id's waiting section -> when it arrived.
  #release(id) {
    const { bytes, since } = this.#waiting.get(id);
    this.#waiting.delete(id);
    this.#held -= bytes;
    return since;
  }

  #decoded(fields) {
    let octets = 0;
    for (const [name, value] of fields) octets += name.length + value.length;
    this.#cells.fieldBytes.value += octets;
  }
}

const NO_DECODER_METER = Object.freeze({ section() {}, encoderStream() {}, cancelled() {} });

class Recorder {
  // stats(): core.stats (decision/core.js), read at each scrape. now(): the clock of startedAt,
  // performance.now() (tests pass their own).
  constructor(stats, { now = () => performance.now() } = {}) {
    this.registry = new Registry();
    const families = defineFamilies(this.registry);
    for (const protocol of PROTOCOLS) this[protocol] = new Meter(families, protocol, now);
    this.connections = byName(PROTOCOLS, (protocol) => families.connections.cell(protocol));
    this.drops = byName(HANDSHAKE_DROPS, (reason) => families.handshakeDrops.cell(reason));
    this.qpackSections = families.qpackBytes.cell('request');
    this.qpackInstructions = families.qpackBytes.cell('encoder');
    this.qpackResponses = families.qpackSections.cell('response');
    this.qpackResponseFields = families.qpackFieldBytes.cell('response');
    this.decoderCells = {
      sections: families.qpackSections.cell('request'),
      sectionBytes: families.qpackDecoded.cell('request'),
      encoderBytes: families.qpackDecoded.cell('encoder'),
      fieldBytes: families.qpackFieldBytes.cell('request'),
      blocked: families.qpackBlocked.cell(),
      blockedSeconds: families.qpackBlockedSeconds.cell(),
      blockedMax: families.qpackBlockedMax.cell(),
    };
    this.now = now;
    const cacheHits = families.compressCache.cell('hit');
    const cacheMisses = families.compressCache.cell('miss');
    const compressions = byName(COMPRESSION_USES, (use) => families.compressions.cell(use));
    const seconds = byName(COMPRESSION_USES, (use) => families.compressionSeconds.cell(use));
    this.registry.onScrape(() => {
      const { compressCache, compressionSlots } = stats();
      cacheHits.value = compressCache.hits;
      cacheMisses.value = compressCache.misses;
      for (const use of COMPRESSION_USES) {
        compressions[use].value = compressionSlots.acquired[use] ?? 0;
        seconds[use].value = (compressionSlots.heldMs[use] ?? 0) / 1000;
      }
    });
  }

  /** A socket past its TLS handshake (or a plain one with --no-tls), or an HTTP/3 connection (alpnProtocol 'h3'): open until its 'close'. */
  connectionOpened(socket) {
    const alpn = socket.alpnProtocol;
    const cell = this.connections[alpn === 'h2' || alpn === 'h3' ? alpn : 'h1'];
    cell.value++;
    socket.once('close', () => cell.value--);
  }

  /** reason: one of HANDSHAKE_DROPS; count: how many (the C transport reports them in batches). */
  handshakeDropped(reason, count = 1) {
    this.drops[reason].value += count;
  }

  /** One HTTP/3 response's header section: its HEADERS payload, the encoder-stream octets it needed, and its name and value octets. */
  qpackEncoded(sectionBytes, encoderStreamBytes, fieldBytes) {
    this.qpackSections.value += sectionBytes;
    this.qpackInstructions.value += encoderStreamBytes;
    this.qpackResponses.value++;
    this.qpackResponseFields.value += fieldBytes;
  }

  /** The meter of one HTTP/3 connection's QPACK decoder. */
  qpackDecoder() {
    return new DecoderMeter(this.decoderCells, this.now);
  }

  render() {
    return this.registry.render();
  }
}

const NO_METER = Object.freeze({ opened() {}, closed() {}, finished() {}, floodClosed() {} });
const NO_METRICS = Object.freeze({ h1: NO_METER, h2: NO_METER, h3: NO_METER, connectionOpened() {}, handshakeDropped() {}, qpackEncoded() {}, qpackDecoder: () => NO_DECODER_METER });

module.exports = { Recorder, NO_METRICS, NO_METER, DURATION_BUCKETS, HANDSHAKE_DROPS };
