#!/usr/bin/env python3
"""Raw QUIC streams (ALPN h3, no HTTP/3 framing) against native/quic.js, with aioquic.

  quic-raw-client.py HOST PORT CAFILE PLAN_JSON

PLAN: {"streams": [{"send": "text", "repeat": 1, "fin": true, "reset": code, "stop": code}],
       "pause": seconds of not reading after sending (no ACKs: the server's queue fills),
       "wait_close": true to wait for the server's CONNECTION_CLOSE, "linger": seconds to go on
       reading before checking the streams, "idle_timeout": the max_idle_timeout we advertise
       (seconds), "close": {"code", "frame_type", "reason"}: our CONNECTION_CLOSE once the
       streams are answered (a frame_type makes it a transport error), "stall": true to stop after
       the server's first flight (the handshake never completes; nothing is printed but {})}
Prints one JSON line: per stream its bytes' length and sha256, whether FIN came, a RESET_STREAM
code; the connection's close (error_code, reason_phrase) when the server closed it; whether
the server asked for a Retry.
"""
import asyncio
import hashlib
import json
import sys
import time

from aioquic.asyncio import connect
from aioquic.asyncio.protocol import QuicConnectionProtocol
from aioquic.quic.configuration import QuicConfiguration
from aioquic.quic.connection import QuicConnection
from aioquic.quic.events import ConnectionTerminated, StreamDataReceived, StreamReset


class Client(QuicConnectionProtocol):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.got = {}
        self.closed = asyncio.get_event_loop().create_future()
        self.changed = asyncio.Event()

    def entry(self, stream_id):
        return self.got.setdefault(stream_id, {"hash": hashlib.sha256(), "length": 0, "fin": False, "reset": None})

    def quic_event_received(self, event):
        if isinstance(event, StreamDataReceived):
            e = self.entry(event.stream_id)
            e["hash"].update(event.data)
            e["length"] += len(event.data)
            e["fin"] = e["fin"] or event.end_stream
        elif isinstance(event, StreamReset):
            self.entry(event.stream_id)["reset"] = event.error_code
        elif isinstance(event, ConnectionTerminated) and not self.closed.done():
            self.closed.set_result({"code": event.error_code, "reason": event.reason_phrase})
        self.changed.set()


def stall(host, port, config):
    """Sends Initials (answering a Retry) until the server's handshake flight comes, then stops."""
    import socket
    quic = QuicConnection(configuration=config)
    addr = (host, port)
    quic.connect(addr, now=time.time())
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        sock.settimeout(5)
        while True:
            for data, _ in quic.datagrams_to_send(now=time.time()):
                sock.sendto(data, addr)
            data = sock.recv(65536)
            if data[0] & 0xF0 != 0xF0:  # not a Retry (long header, type 3): the server's flight
                break
            quic.receive_datagram(data, addr, now=time.time())  # the next Initial carries its token
    print("{}", flush=True)


async def main(host, port, cafile, plan):
    config = QuicConfiguration(is_client=True, alpn_protocols=["h3"], server_name="localhost")
    config.load_verify_locations(cafile)
    if "idle_timeout" in plan:
        config.idle_timeout = plan["idle_timeout"]
    if plan.get("stall"):
        return stall(host, port, config)
    async with connect(host, port, configuration=config, create_protocol=Client, wait_connected=True) as client:
        ids = []
        for spec in plan.get("streams", []):
            sid = client._quic.get_next_available_stream_id()
            ids.append(sid)
            data = (spec.get("send", "") * spec.get("repeat", 1)).encode()
            client._quic.send_stream_data(sid, data, end_stream=spec.get("fin", True))
            if "reset" in spec:
                client._quic.reset_stream(sid, spec["reset"])
            if "stop" in spec:
                client._quic.stop_stream(sid, spec["stop"])
        client.transmit()
        if plan.get("pause"):
            time.sleep(plan["pause"])  # blocks the loop: nothing read, nothing acknowledged

        def done():
            if plan.get("wait_close"):
                return client.closed.done()
            return all(client.got.get(s, {}).get("fin") or client.got.get(s, {}).get("reset") is not None
                       for s, spec in zip(ids, plan.get("streams", [])) if spec.get("expect", True))

        await asyncio.sleep(plan.get("linger", 0))  # reading: the server's answers arrive
        deadline = time.monotonic() + plan.get("timeout", 10)
        while not done() and time.monotonic() < deadline:
            client.changed.clear()
            try:
                await asyncio.wait_for(client.changed.wait(), max(0.01, deadline - time.monotonic()))
            except asyncio.TimeoutError:
                pass
        if "close" in plan:
            c = plan["close"]
            client._quic.close(error_code=c["code"], frame_type=c.get("frame_type"), reason_phrase=c.get("reason", ""))
            client.transmit()
        streams = {str(s): {"length": e["length"], "sha256": e["hash"].hexdigest(), "fin": e["fin"], "reset": e["reset"]}
                   for s, e in client.got.items()}
        result = {"streams": streams, "ids": ids, "close": client.closed.result() if client.closed.done() else None,
                  "retry": client._quic._retry_count > 0}
    print(json.dumps(result), flush=True)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2]), sys.argv[3], json.loads(sys.argv[4])))
