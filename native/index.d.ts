// The HPACK (RFC 7541) and QPACK (RFC 9204) codecs of negotiate-h2/native (native/index.js,
// native/qpack.js). Names and values are latin1 strings: one byte per character.
/// <reference types="node" />

/** [[name, value], ...] or { name: value | values }; values other than strings are String()ed. */
export type HeaderInput = ReadonlyArray<readonly [string, string | number]> | { readonly [name: string]: string | number | ReadonlyArray<string | number> };
/** Decoded fields in block order. */
export type HeaderList = Array<[string, string]>;

/** Indexing choices shared by the HPACK and QPACK encoders. */
export interface EncoderFlags {
  /** Huffman-code string literals when shorter (default true). */
  huffman?: boolean;
  /** Never index cookies under 20 bytes (default true). */
  neverIndexShortCookies?: boolean;
  /** Index fields unlikely to repeat too (default false). */
  indexVolatileFields?: boolean;
  /** Learn which names' entries get reused (default true); false: a fixed list. */
  learnRepeats?: boolean;
  /** Header names always sent never-indexed. */
  sensitive?: string[];
}

export interface EncoderOptions extends EncoderFlags {
  /** Dynamic table size (default 4096). */
  tableSize?: number;
  /** 'linear' (default), 'static' (static table only) or 'none'. */
  indexing?: 'linear' | 'static' | 'none';
}

/** A header list packed once, for encoding many times by any Encoder. */
export declare class PackedHeaders {
  /** Throws an ERR_HPACK_INVALID_ARGUMENT TypeError for a character above U+00FF. */
  constructor(headers: HeaderInput, options?: { sensitive?: string[] });
  readonly count: number;
}

export declare class Encoder {
  constructor(options?: EncoderOptions);
  /** One header block. Throws an ERR_HPACK_INVALID_ARGUMENT TypeError for a character above U+00FF. */
  encode(headers: HeaderInput | PackedHeaders): Buffer;
  /** The block written into out at offset: its length, or (nothing written) the room it needs when out has less. */
  encodeInto(list: PackedHeaders, out: Uint8Array, offset: number): number;
  /** Our dynamic table size (at most the peer's SETTINGS_HEADER_TABLE_SIZE). */
  setTableSize(size: number): void;
  /** Frees the dynamic table now; any later call throws. */
  close(): void;
}

export interface DecoderOptions {
  /** Dynamic table size limit (default 4096). */
  tableSize?: number;
  /** Largest decoded list, 32 bytes a field overhead (default 65536). */
  maxHeaderListSize?: number;
  /** Longest name or value (default maxHeaderListSize). */
  maxStringLength?: number;
}

export declare class Decoder {
  constructor(options?: DecoderOptions);
  /** One complete header block; throws an Error with an ERR_HPACK_* code on malformed input. */
  decode(block: Uint8Array): HeaderList;
  /** The protocol limit: our SETTINGS_HEADER_TABLE_SIZE once the peer acknowledged it. */
  setTableSize(size: number): void;
}

/** Huffman coding of RFC 7541 appendix B; a string means its UTF-8 bytes. */
export declare const huffman: {
  encode(input: string | Uint8Array): Buffer;
  decode(input: string | Uint8Array): Buffer;
  encodedLength(input: string | Uint8Array): number;
};

export interface QpackEncoderOptions extends EncoderFlags {
  /** The peer's SETTINGS_QPACK_MAX_TABLE_CAPACITY (default 0). */
  maxTableCapacity?: number;
  /** The capacity to use (default maxTableCapacity). */
  tableCapacity?: number;
  /** The peer's SETTINGS_QPACK_BLOCKED_STREAMS (default 0). */
  maxBlockedStreams?: number;
}

export declare class QpackEncoder {
  constructor(options?: QpackEncoderOptions);
  /** The field section for streamId, the encoder-stream bytes to send first, and the name and value octets it encoded (no per-field overhead). */
  encode(streamId: number, headers: HeaderInput): { section: Buffer; encoderStream: Buffer; fieldBytes: number };
  /** Bytes from the peer's decoder stream; throws ERR_QPACK_DECODER_STREAM_ERROR. */
  feedDecoder(bytes: Uint8Array): void;
  /** Treat every section so far as acknowledged. */
  assumeAcknowledged(): void;
  readonly insertCount: number;
  readonly knownReceivedCount: number;
  readonly blockedStreams: number;
}

export interface QpackDecoderOptions {
  /** Our SETTINGS_QPACK_MAX_TABLE_CAPACITY (default 0). */
  maxTableCapacity?: number;
  /** Our SETTINGS_QPACK_BLOCKED_STREAMS (default 0). */
  maxBlockedStreams?: number;
  /** Our SETTINGS_MAX_FIELD_SECTION_SIZE (default 65536). */
  maxFieldSectionSize?: number;
  /** Longest name or value (default the larger of maxFieldSectionSize and maxTableCapacity). */
  maxStringLength?: number;
  /** Memory for sections waiting on inserts, all blocked streams together (default 1 MiB). */
  maxBlockedBytes?: number;
}

export declare class QpackDecoder {
  constructor(options?: QpackDecoderOptions);
  /** One complete field section, or null while it waits for inserts (feedEncoder returns it). */
  decode(streamId: number, section: Uint8Array): HeaderList | null;
  /** Bytes from the peer's encoder stream: the sections they unblocked, in arrival order. */
  feedEncoder(bytes: Uint8Array): Array<{ streamId: number; headers: HeaderList }>;
  /** The stream was reset: forget its waiting section and tell the encoder. */
  cancelStream(streamId: number): void;
  /** Decoder-stream bytes to send to the peer. */
  readDecoderStream(): Buffer;
}

/** glibc's malloc_trim(0): gives the C library's free pages back to the system; true when some went back, false off glibc. */
export declare function releaseFreeMemory(): boolean;
