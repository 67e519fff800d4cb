'use strict';
// The two HPACK implementations the Node-side benchmark drives through one
// interface: the project's addon (require('./native')) and hpack.js, the
// pure-JS reference from npm. Every decode ends in JS strings, as a server
// needs them.
//
// adapter: {
//   impl,
//   huffmanInput(coded: Buffer) -> what huffmanDecode takes,
//   huffmanDecode(input) -> string,
//   huffmanEncode(str) -> Buffer, in the form huffmanInput gives (so the
//     two implementations can be checked against each other),
//   headerInput(headers: [[name, value]]) -> what an encoder takes,
//   newDecoder() -> { decode(wire) -> [[name, value]] },
//   newEncoder() -> { encode(input) -> Buffer },
// }
// Tables start at the default 4096 bytes, as in the C benchmark.
const path = require('node:path');
const hpack = require('hpack.js');
const { DEFAULT_TABLE_SIZE } = require('./corpus');

const REPO_ROOT = path.resolve(__dirname, '..', '..');

function nativeAdapter() {
  const { huffman, Encoder, Decoder } = require(path.join(REPO_ROOT, 'native'));
  return {
    impl: 'native',
    huffmanInput: (coded) => coded,
    // The addon decodes to bytes; header values are latin1 strings in Node's http2.
    huffmanDecode: (coded) => huffman.decode(coded).toString('latin1'),
    huffmanEncode: (str) => huffman.encode(Buffer.from(str, 'latin1')),
    headerInput: (headers) => headers,
    // No list or string limit, as in the C benchmark: limits are server policy.
    newDecoder: () => new Decoder({ tableSize: DEFAULT_TABLE_SIZE, maxHeaderListSize: 0xffffffff }),
    newEncoder: () => new Encoder({ tableSize: DEFAULT_TABLE_SIZE, huffman: true, indexing: 'linear' }),
  };
}

// hpack.js codes strings as arrays of octets (one per char code below 256).
function hpackjsAdapter() {
  const { utils } = hpack;
  // hpack.js only decodes a whole string literal, so inputs carry the
  // literal's Huffman flag and length prefix (1 to 3 bytes; not counted).
  const literal = (coded) => {
    const enc = hpack.encoder.create();
    enc.encodeBit(1);
    enc.encodeInt(coded.length);
    return Buffer.concat([...enc.render(), coded]);
  };
  return {
    impl: 'hpack.js',
    huffmanInput: literal,
    huffmanDecode: (input) => {
      const dec = hpack.decoder.create();
      dec.push(input);
      return utils.stringify(dec.decodeStr());
    },
    huffmanEncode: (str) => {
      const enc = hpack.encoder.create();
      enc.encodeStr(utils.toArray(str), true);
      return Buffer.concat(enc.render());
    },
    headerInput: (headers) => headers.map(([name, value]) => ({ name, value })),
    newDecoder: () => {
      const d = hpack.decompressor.create({ table: { maxSize: DEFAULT_TABLE_SIZE } });
      return {
        decode(wire) {
          d.write(wire);
          d.execute();
          const out = [];
          for (let h = d.read(); h !== null; h = d.read()) out.push([h.name, h.value]);
          return out;
        },
      };
    },
    newEncoder: () => {
      const c = hpack.compressor.create({ table: { maxSize: DEFAULT_TABLE_SIZE } });
      return {
        encode(headers) {
          c.write(headers);
          return c.read() ?? Buffer.alloc(0);
        },
      };
    },
  };
}

module.exports = { nativeAdapter, hpackjsAdapter };
