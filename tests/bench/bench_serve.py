"""`pnp serve` under a burst of clients: prints figures, asserts nothing (run by hand).

    .venv/bin/python tests/bench/bench_serve.py [--clients N] [--size BYTES] [--rounds R]

Opens N connections to a preview server on 127.0.0.1 at once (non-blocking
sockets), sends a GET on each, and prints how many were answered in full, the
wall-clock seconds for all of them and the slowest client's seconds. The
standard ThreadingHTTPServer (backlog 5) is measured beside it for comparison.
"""

from __future__ import annotations

import argparse
import selectors
import socket
import tempfile
import threading
import time
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from generator.cli.server import BuildState, PreviewServer

BOUND = 60.0  # seconds before the clients still waiting are counted as failed


def burst(port: int, clients: int, body: bytes) -> tuple[int, float, float]:
    """(clients answered in full, seconds for all, slowest client's seconds)."""
    chooser = selectors.DefaultSelector()
    replies: dict[int, bytes] = {}
    finished: dict[int, float] = {}
    began = time.perf_counter()
    for number in range(clients):
        client = socket.socket()
        client.setblocking(False)
        client.connect_ex(("127.0.0.1", port))
        chooser.register(client, selectors.EVENT_WRITE, number)
        replies[number] = b""
    while chooser.get_map() and time.perf_counter() - began < BOUND:
        for key, events in chooser.select(timeout=0.5):
            client, number = key.fileobj, key.data
            assert isinstance(client, socket.socket)
            try:
                if events & selectors.EVENT_WRITE:
                    client.send(b"GET /face.png HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n")
                    chooser.modify(client, selectors.EVENT_READ, number)
                    continue
                chunk = client.recv(65536)
            except OSError:
                chunk, replies[number] = b"", b""
            if chunk:
                replies[number] += chunk
            else:
                finished[number] = time.perf_counter() - began
                chooser.unregister(client)
                client.close()
    for key in list(chooser.get_map().values()):
        key.fileobj.close()  # type: ignore[union-attr]
    served = sum(1 for r in replies.values() if r.endswith(b"\r\n\r\n" + body) and b" 200 " in r[:20])
    return served, time.perf_counter() - began, max(finished.values(), default=BOUND)


def standard_server(folder: Path) -> Any:
    """The standard library's own threading server over the same folder, in a thread."""

    class Quiet(SimpleHTTPRequestHandler):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, directory=str(folder), **kwargs)

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Quiet)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--clients", type=int, default=500)
    parser.add_argument("--size", type=int, default=20_000, help="bytes of the file fetched")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        body = bytes(range(256)) * (args.size // 256)
        (folder / "face.png").write_bytes(body)
        with PreviewServer(folder, "127.0.0.1", 0, BuildState(), b"") as server:
            for _ in range(args.rounds):
                served, total, slowest = burst(server.httpd.server_address[1], args.clients, body)
                print(f"pnp serve:           {served}/{args.clients} served in {total:.2f} s, slowest {slowest:.2f} s")
        standard = standard_server(folder)
        try:
            for _ in range(args.rounds):
                served, total, slowest = burst(standard.server_address[1], args.clients, body)
                print(f"ThreadingHTTPServer: {served}/{args.clients} served in {total:.2f} s, slowest {slowest:.2f} s")
        finally:
            standard.shutdown()
            standard.server_close()


if __name__ == "__main__":
    main()
