#!/usr/bin/env python3
"""A hostile HTTP/3 client for test/integration/h3-hostile.test.js: aioquic's QUIC with raw
streams (ALPN h3), whose octets the test builds (frames, QPACK), so it can send what no conformant
client would. The certificate is not checked: the server is the one under test.

  h3-hostile.py HOST PORT < PLAN_JSON
  h3-hostile.py HOST PORT half-open N SECONDS
      N connections (from fresh sockets) that send their first Initial (again after a Retry)
      and nothing more, kept for SECONDS; prints nothing

PLAN: a list of steps, run in order; streams are numbered in the order they are opened:
  {"op": "uni", "hex": H}                          open a unidirectional stream, send H
  {"op": "bidi", "hex": H, "fin": bool, "count": n} open n request streams, each sending H
  {"op": "send", "stream": i, "hex": H, "fin": bool} more octets on stream i
  {"op": "rapid_reset", "hex": H, "count": n, "code": c, "seconds": s}
      open a request stream, send H with FIN, reset it with c; n times (each one when the
      server's MAX_STREAMS allows it) or until the connection closes or s seconds pass
  {"op": "wait", "seconds": s}                     go on reading for s seconds
  {"op": "block", "seconds": s}                    block the loop: nothing read, nothing ACKed
  {"op": "until_close", "seconds": s}              read until the server closes (at most s)
  {"op": "until_answered", "seconds": s}           read until every request stream has FIN or
                                                   a reset from the server (at most s)
Prints one JSON line: {"connected": false, "error"} when the handshake fails, else {"close": {"code", "reason"} or null, "streams": {id: {"length", "fin",
"reset", "head"}} ("head": the first 64 octets received, hex), "opened": [ids],
"blocked": request streams aioquic holds back for want of MAX_STREAMS, "max_streams": the
server's MAX_STREAMS for them, "reset_sent": n, "connected": true}.
"""
import asyncio
import json
import socket
import ssl
import sys
import time

from aioquic.asyncio import connect
from aioquic.asyncio.protocol import QuicConnectionProtocol
from aioquic.quic.configuration import QuicConfiguration
from aioquic.quic.connection import QuicConnection
from aioquic.quic.events import ConnectionTerminated, StreamDataReceived, StreamReset


# A handshake the server never answers fails after this long.
IDLE_TIMEOUT_S = 5.0


def configuration():
    config = QuicConfiguration(is_client=True, alpn_protocols=["h3"], server_name="localhost")
    config.verify_mode = ssl.CERT_NONE
    config.idle_timeout = IDLE_TIMEOUT_S
    return config


class Client(QuicConnectionProtocol):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.got = {}
        self.closed = None
        self.changed = asyncio.Event()

    def entry(self, stream_id):
        return self.got.setdefault(stream_id, {"length": 0, "fin": False, "reset": None, "head": b""})

    def quic_event_received(self, event):
        if isinstance(event, StreamDataReceived):
            e = self.entry(event.stream_id)
            e["length"] += len(event.data)
            if len(e["head"]) < 64:
                e["head"] = (e["head"] + event.data)[:64]
            e["fin"] = e["fin"] or event.end_stream
        elif isinstance(event, StreamReset):
            self.entry(event.stream_id)["reset"] = event.error_code
        elif isinstance(event, ConnectionTerminated) and self.closed is None:
            self.closed = {"code": event.error_code, "reason": event.reason_phrase}
        self.changed.set()

    async def until(self, done, seconds):
        deadline = time.monotonic() + seconds
        while not done() and time.monotonic() < deadline:
            self.changed.clear()
            try:
                await asyncio.wait_for(self.changed.wait(), max(0.01, deadline - time.monotonic()))
            except asyncio.TimeoutError:
                pass


def half_open(host, port, count):
    """Connections that never get past the client's first flight: the server's handshake waits.
    A server that answers with Retry (address validation) gets the Initial again with its token,
    so that it does keep a connection; any other answer is left unanswered."""
    sockets = []
    for _ in range(count):
        conn = QuicConnection(configuration=configuration())
        conn.connect((host, port), now=time.monotonic())
        sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        sock.settimeout(0.5)
        for data, _addr in conn.datagrams_to_send(now=time.monotonic()):
            sock.sendto(data, (host, port))
        deadline = time.monotonic() + 0.5
        try:
            while not conn._retry_count and time.monotonic() < deadline:
                conn.receive_datagram(sock.recv(65536), (host, port), now=time.monotonic())
        except socket.timeout:
            pass
        if conn._retry_count:
            for data, _addr in conn.datagrams_to_send(now=time.monotonic()):
                sock.sendto(data, (host, port))
        sockets.append(sock)
    return sockets


async def main(host, port, plan):
    try:
        result = await session(host, port, plan)
    except ConnectionError as err:  # the handshake failed: refused, or the server did not answer
        result = {"connected": False, "error": repr(err)}
    print(json.dumps(result), flush=True)


async def session(host, port, plan):
    opened = []
    reset_sent = 0
    async with connect(host, port, configuration=configuration(), create_protocol=Client, wait_connected=True) as client:
        quic = client._quic

        def open_stream(bidi, data, fin):
            sid = quic.get_next_available_stream_id(is_unidirectional=not bidi)
            quic.send_stream_data(sid, data, end_stream=fin)
            opened.append(sid)
            return sid

        def answered():
            return all(client.got.get(s, {}).get("fin") or client.got.get(s, {}).get("reset") is not None
                       for s in opened if s % 4 == 0)

        for step in plan:
            op = step["op"]
            data = bytes.fromhex(step.get("hex", ""))
            if client.closed is not None and op != "until_close":
                break
            if op == "uni":
                open_stream(False, data, False)
            elif op == "bidi":
                for _ in range(step.get("count", 1)):
                    open_stream(True, data, step.get("fin", True))
            elif op == "send":
                quic.send_stream_data(opened[step["stream"]], data, end_stream=step.get("fin", False))
            elif op == "rapid_reset":
                deadline = time.monotonic() + step["seconds"]
                while reset_sent < step["count"] and client.closed is None and time.monotonic() < deadline:
                    if quic.get_next_available_stream_id() // 4 >= quic._remote_max_streams_bidi:
                        client.transmit()
                        await client.until(lambda: False, 0.005)
                        continue
                    sid = open_stream(True, data, True)
                    quic.reset_stream(sid, step["code"])
                    reset_sent += 1
                    if reset_sent % 20 == 0:
                        client.transmit()
                        await asyncio.sleep(0)
            elif op == "wait":
                client.transmit()
                await asyncio.sleep(step["seconds"])
            elif op == "block":
                client.transmit()
                time.sleep(step["seconds"])
            elif op == "until_close":
                client.transmit()
                await client.until(lambda: client.closed is not None, step["seconds"])
            elif op == "until_answered":
                client.transmit()
                await client.until(answered, step["seconds"])
            client.transmit()
        result = {
            "close": client.closed,
            "streams": {str(s): {"length": e["length"], "fin": e["fin"], "reset": e["reset"], "head": e["head"].hex()}
                        for s, e in client.got.items()},
            "opened": opened,
            "blocked": len(quic._streams_blocked_bidi),
            "max_streams": quic._remote_max_streams_bidi,
            "reset_sent": reset_sent,
            "connected": True,
        }
    return result


if __name__ == "__main__":
    if len(sys.argv) > 3 and sys.argv[3] == "half-open":
        kept = half_open(sys.argv[1], int(sys.argv[2]), int(sys.argv[4]))
        time.sleep(float(sys.argv[5]))
    else:
        asyncio.run(main(sys.argv[1], int(sys.argv[2]), json.load(sys.stdin)))
