#!/usr/bin/env python3
"""pylsqpack (ls-qpack) on QPACK Offline Interop Format files, for test/integration/qpack-interop.test.js.

  qif_pylsqpack.py encode TABLE_SIZE MAX_BLOCKED IMMEDIATE_ACK(0|1) IN.qif OUT.out
  qif_pylsqpack.py decode TABLE_SIZE MAX_BLOCKED IN.out OUT.qif

Same conventions as native/tools/qif.js: section k on stream k from 1, stream 0
the encoder stream, records of 8-byte stream id, 4-byte length, bytes; decoded
sections written in stream order, each followed by a blank line.
"""
import struct
import sys

import pylsqpack


def read_sections(path):
    sections, current = [], []
    with open(path, "rb") as f:
        for line in f.read().split(b"\n"):
            if line.startswith(b"#"):
                continue
            if line == b"":
                if current:
                    sections.append(current)
                current = []
                continue
            name, value = line.split(b"\t", 1)
            current.append((name, value))
    if current:
        sections.append(current)
    return sections


def record(stream_id, data):
    return struct.pack(">QI", stream_id, len(data)) + data


def section_ack(stream_id):
    """Section Acknowledgment (RFC 9204 4.4.1): 1 + 7-bit prefix integer."""
    if stream_id < 127:
        return bytes([0x80 | stream_id])
    out, v = bytearray([0xFF]), stream_id - 127
    while v >= 128:
        out.append(0x80 | (v & 0x7F))
        v >>= 7
    out.append(v)
    return bytes(out)


def encode(table_size, max_blocked, immediate_ack, src, dst):
    encoder = pylsqpack.Encoder()
    out = [record(0, encoder.apply_settings(table_size, max_blocked))]
    for i, headers in enumerate(read_sections(src), 1):
        encoder_data, block = encoder.encode(i, headers)
        if encoder_data:
            out.append(record(0, encoder_data))
        out.append(record(i, block))
        # A non-zero first byte is a non-zero Required Insert Count: only then is an acknowledgment due.
        if immediate_ack and block[0] != 0:
            encoder.feed_decoder(section_ack(i))
    with open(dst, "xb") as f:
        f.write(b"".join(o for o in out if len(o) > 12 or o[:8] != b"\0" * 8))


def decode(table_size, max_blocked, src, dst):
    decoder = pylsqpack.Decoder(table_size, max_blocked)
    sections = {}
    with open(src, "rb") as f:
        data = f.read()
    pos = 0
    while pos < len(data):
        stream_id, length = struct.unpack_from(">QI", data, pos)
        pos += 12
        chunk = data[pos:pos + length]
        pos += length
        if stream_id == 0:
            for sid in decoder.feed_encoder(chunk):
                sections[sid] = decoder.resume_header(sid)[1]
        else:
            try:
                sections[stream_id] = decoder.feed_header(stream_id, chunk)[1]
            except pylsqpack.StreamBlocked:
                pass
    with open(dst, "xb") as f:
        for sid in sorted(sections):
            f.write(b"".join(name + b"\t" + value + b"\n" for name, value in sections[sid]) + b"\n")


def main(argv):
    if argv[0] == "encode":
        encode(int(argv[1]), int(argv[2]), argv[3] == "1", argv[4], argv[5])
    elif argv[0] == "decode":
        decode(int(argv[1]), int(argv[2]), argv[3], argv[4])
    else:
        sys.exit("usage: qif_pylsqpack.py encode|decode ...")


if __name__ == "__main__":
    main(sys.argv[1:])
