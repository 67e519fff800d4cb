#!/usr/bin/env python3
"""HTTP/3 load for bench:h3 (bench/h3/run.js): ONE QUIC connection from aioquic (QPACK with a
dynamic table through pylsqpack) with CONCURRENCY requests in flight, each worker requesting the
paths in turn until DURATION seconds have passed, then finishing its request in flight. The
server's certificate is verified against CAFILE and the host is always 127.0.0.1. run.js starts
LOADS[load].h3.processes of these on the load core; aioquic spends far more CPU per request than
the server, so on one core they make about 2,000 small requests a second however many there are
(bench/results/2026-11-28-http3.md).

Prints one JSON object: requests (200 responses with the expected coding), errors by kind,
latenciesUs (every request's, sorted), elapsedS (first request sent to the last response),
bodyBytes, and samples (the first response of each path: status, content-encoding, body base64).

usage: load.py PORT CAFILE SERVER_NAME CONFIG_JSON
CONFIG_JSON: {"paths": ["/a"], "acceptEncoding": "br" or null, "expect": {"/a": "br"},
              "durationS": 5, "concurrency": 16}"""

import asyncio
import base64
import json
import sys
import time

from aioquic.asyncio.client import connect
from aioquic.asyncio.protocol import QuicConnectionProtocol
from aioquic.h3.connection import H3_ALPN, H3Connection
from aioquic.h3.events import DataReceived, HeadersReceived
from aioquic.quic.configuration import QuicConfiguration
from aioquic.quic.events import StreamReset

HOST = "127.0.0.1"
# A response that takes longer than this counts as a timeout error; the run goes on. Also the
# QUIC idle timeout, so that a server without HTTP/3 fails the handshake this soon.
REQUEST_TIMEOUT_S = 10


class Client(QuicConnectionProtocol):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.h3 = H3Connection(self._quic)
        self.pending = {}

    def quic_event_received(self, event):
        if isinstance(event, StreamReset) and event.stream_id in self.pending:
            self.pending.pop(event.stream_id)[0].set_exception(ConnectionResetError(event.error_code))
            return
        for h3_event in self.h3.handle_event(event):
            entry = self.pending.get(getattr(h3_event, "stream_id", None))
            if entry is None:
                continue
            future, state = entry
            if isinstance(h3_event, HeadersReceived):
                state["headers"].extend(h3_event.headers)
            elif isinstance(h3_event, DataReceived):
                state["body"].append(h3_event.data)
            if h3_event.stream_ended:
                del self.pending[h3_event.stream_id]
                future.set_result(state)

    async def fetch(self, headers):
        stream_id = self._quic.get_next_available_stream_id()
        future = asyncio.get_running_loop().create_future()
        self.pending[stream_id] = (future, {"headers": [], "body": []})
        self.h3.send_headers(stream_id, headers, end_stream=True)
        self.transmit()
        try:
            return await asyncio.wait_for(future, REQUEST_TIMEOUT_S)
        finally:
            self.pending.pop(stream_id, None)


async def worker(client, authority, config, deadline, out, offset):
    paths = config["paths"]
    ae = config["acceptEncoding"]
    i = offset
    while time.monotonic() < deadline:
        path = paths[i % len(paths)]
        i += 1
        headers = [(b":method", b"GET"), (b":scheme", b"https"), (b":authority", authority),
                   (b":path", path.encode())]
        if ae is not None:
            headers.append((b"accept-encoding", ae.encode()))
        start = time.perf_counter_ns()
        try:
            state = await client.fetch(headers)
        except asyncio.TimeoutError:
            out["errors"]["timeout"] += 1
            continue
        except ConnectionResetError:
            out["errors"]["reset"] += 1
            continue
        latency = (time.perf_counter_ns() - start) // 1000
        fields = {k.decode("latin1"): v.decode("latin1") for k, v in state["headers"]}
        body = b"".join(state["body"])
        coding = fields.get("content-encoding", "identity")
        if path not in out["samples"]:
            out["samples"][path] = {"status": int(fields.get(":status", "0")), "contentEncoding": coding,
                                    "body": base64.b64encode(body).decode()}
        if fields.get(":status") != "200":
            out["errors"]["status"] += 1
        elif coding != config["expect"][path]:
            out["errors"]["coding"] += 1
        else:
            out["requests"] += 1
            out["bodyBytes"] += len(body)
            out["latenciesUs"].append(latency)
        out["last"] = time.monotonic()


async def main():
    port, cafile, server_name, config = int(sys.argv[1]), sys.argv[2], sys.argv[3], json.loads(sys.argv[4])
    qc = QuicConfiguration(is_client=True, alpn_protocols=H3_ALPN, server_name=server_name, idle_timeout=REQUEST_TIMEOUT_S)
    qc.load_verify_locations(cafile)
    out = {"requests": 0, "errors": {"status": 0, "coding": 0, "reset": 0, "timeout": 0},
           "latenciesUs": [], "bodyBytes": 0, "samples": {}, "last": None}
    authority = f"{server_name}:{port}".encode()
    async with connect(HOST, port, configuration=qc, create_protocol=Client) as client:
        start = time.monotonic()
        deadline = start + config["durationS"]
        await asyncio.gather(*(worker(client, authority, config, deadline, out, n)
                               for n in range(config["concurrency"])))
    out["latenciesUs"].sort()
    out["elapsedS"] = (out.pop("last") or start) - start
    out["errors"]["total"] = sum(out["errors"].values())
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    try:
        asyncio.run(main())
    except ConnectionError:
        sys.exit(f"no QUIC connection to {HOST}:{sys.argv[1]}: the handshake failed or took over {REQUEST_TIMEOUT_S} s"
                 f" (HTTP/3 off, or a certificate that {sys.argv[2]} does not verify)")
