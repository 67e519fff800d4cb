#!/usr/bin/env python3
"""An HTTP/3 client for the integration tests, on aioquic (H3Connection, QPACK through
pylsqpack with a dynamic table). It verifies the server's certificate against the CA file it
is given. Reads a JSON list of requests from stdin, [{"path": "/x", "method": "GET",
"headers": {"name": "value"}}], sends them all on one connection, and prints a JSON list of
responses in the same order: {"status", "headers": [[name, value]], "body": base64}.

usage: h3-client.py HOST PORT CAFILE [SERVER_NAME]"""

import asyncio
import base64
import json
import sys

from aioquic.asyncio.client import connect
from aioquic.asyncio.protocol import QuicConnectionProtocol
from aioquic.h3.connection import H3_ALPN, H3Connection
from aioquic.h3.events import DataReceived, HeadersReceived
from aioquic.quic.configuration import QuicConfiguration
from aioquic.quic.events import StreamReset


class HeadAwareH3Connection(H3Connection):
    """aioquic 1.7 checks a response's content-length against the content that came even when
    the request was HEAD, whose response has none and whose content-length is the GET's (RFC 9110
    9.3.2 and 8.6), and closes the connection with H3_MESSAGE_ERROR: not on HEAD streams."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.head_streams = set()

    def _check_content_length(self, stream):
        if stream.stream_id not in self.head_streams:
            super()._check_content_length(stream)


class Client(QuicConnectionProtocol):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.h3 = HeadAwareH3Connection(self._quic)
        self.pending = {}

    def quic_event_received(self, event):
        if isinstance(event, StreamReset) and event.stream_id in self.pending:
            state = self.pending.pop(event.stream_id)
            state["future"].set_result({"reset": event.error_code})
            return
        for h3_event in self.h3.handle_event(event):
            state = self.pending.get(getattr(h3_event, "stream_id", None))
            if state is None:
                continue
            if isinstance(h3_event, HeadersReceived):
                state["headers"].extend(h3_event.headers)
            elif isinstance(h3_event, DataReceived):
                state["body"] += h3_event.data
            if getattr(h3_event, "stream_ended", False):
                del self.pending[h3_event.stream_id]
                state["future"].set_result(state)

    async def fetch(self, authority, request):
        stream_id = self._quic.get_next_available_stream_id()
        headers = [
            (b":method", request.get("method", "GET").encode()),
            (b":scheme", b"https"),
            (b":authority", authority.encode()),
            (b":path", request["path"].encode()),
        ] + [(k.lower().encode(), v.encode()) for k, v in request.get("headers", {}).items()]
        if request.get("method") == "HEAD":
            self.h3.head_streams.add(stream_id)
        future = asyncio.get_running_loop().create_future()
        self.pending[stream_id] = {"headers": [], "body": b"", "future": future}
        self.h3.send_headers(stream_id, headers, end_stream=True)
        self.transmit()
        state = await asyncio.wait_for(future, 20)
        if "reset" in state:
            return {"reset": state["reset"]}
        fields = [[k.decode("latin1"), v.decode("latin1")] for k, v in state["headers"]]
        status = next(int(v) for k, v in fields if k == ":status")
        return {
            "status": status,
            "headers": [f for f in fields if not f[0].startswith(":")],
            "body": base64.b64encode(state["body"]).decode(),
        }


async def main():
    host, port, cafile = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    server_name = sys.argv[4] if len(sys.argv) > 4 else "localhost"
    requests = json.load(sys.stdin)
    config = QuicConfiguration(is_client=True, alpn_protocols=H3_ALPN, server_name=server_name)
    config.load_verify_locations(cafile)
    async with connect(host, port, configuration=config, create_protocol=Client) as client:
        out = []
        for request in requests:
            out.append(await client.fetch(f"{server_name}:{port}", request))
        json.dump(out, sys.stdout)


if __name__ == "__main__":
    asyncio.run(main())
