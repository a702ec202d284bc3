"""The live preview's web server: output/ over HTTP, plus the build state the gallery page polls.

Standard library only (`http.server`, one thread per request): a preview for
one designer on one machine needs nothing more, and it adds no dependency.
It serves regular files under output/ and nothing else: no folder listings,
no dot-files (the build cache), nothing a symlink or `..` leads outside, and
every response says `no-store`, so a reload always shows the newest build.
`GET /__pnp/status` answers `{"generation": N, "error": "file:line: ..." | null}`;
the page reloads itself when N changes and shows the error on top while
there is one.
"""

from __future__ import annotations

import io
import json
import mimetypes
import socket
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from http import HTTPStatus
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any
from urllib.parse import unquote, urlsplit

from generator.errors import PnpError, UsageError

if TYPE_CHECKING:
    from generator.cli.playweb import PlayTables

STATUS_PATH = "/__pnp/status"
MAX_POST = 64 * 1024  # a Play page's request is a few hundred bytes


@dataclass
class BuildState:
    """What the page polls, written by the build loop and read by request threads (hence the lock)."""

    generation: int = 0  # goes up with every build that changed a file
    error: str | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def run(self, build: Callable[[], Any]) -> Any:
        """Run one build and record its outcome; its result or error goes on to the caller unchanged."""
        try:
            result = build()
        except PnpError as exc:
            with self._lock:
                self.error = str(exc)
            raise
        with self._lock:
            self.error = None
            if result.summary.written or result.summary.removed or result.gallery_written:
                self.generation += 1
        return result

    def as_json(self) -> bytes:
        with self._lock:
            return json.dumps({"generation": self.generation, "error": self.error}).encode("utf-8")


class PreviewHandler(SimpleHTTPRequestHandler):
    """Files under `root` (read-only), the build state, and a placeholder page until the first gallery."""

    disable_nagle_algorithm = True  # headers and body go out as they are written, not 40 ms later

    def __init__(self, *args: Any, root: Path, state: BuildState, placeholder: bytes,
                 play: PlayTables | None = None, **kwargs: Any) -> None:
        self.root = root
        self.state = state
        self.placeholder = placeholder
        self.play = play  # the Play pages' routes (generator.cli.playweb), under /__pnp/play/
        super().__init__(*args, directory=str(root), **kwargs)

    def send_head(self) -> IO[bytes] | None:  # type: ignore[override]  # the base class types it as BytesIO | BinaryIO
        path = unquote(urlsplit(self.path).path)
        if path == STATUS_PATH:
            return self._send_bytes(self.state.as_json(), "application/json")
        if self.play is not None and (answer := self.play.get(path)) is not None:
            return self._send_bytes(answer.body, answer.content_type, answer.status)
        relative = path.lstrip("/")
        if relative == "" or relative.endswith("/"):
            relative += "index.html"
        target = self._inside(relative)
        if target is None:
            if relative == "index.html":
                return self._send_bytes(self.placeholder, "text/html; charset=utf-8")
            self.send_error(HTTPStatus.NOT_FOUND, "Not a file in output/")
            return None
        handle = target.open("rb")
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", mimetypes.guess_type(target.name)[0] or "application/octet-stream")
        self.send_header("Content-Length", str(target.stat().st_size))
        self.end_headers()
        return handle

    def _inside(self, relative: str) -> Path | None:
        """The regular file `relative` names under the root, or None (outside, hidden, missing, a folder)."""
        if "\0" in relative or any(part.startswith(".") for part in relative.split("/")):
            return None
        root = self.root.resolve()
        try:
            target = (root / relative).resolve()
            if not target.is_relative_to(root) or not target.is_file():
                return None
        except OSError:  # a name too long, a loop of links: not a file we serve
            return None
        return target

    def do_POST(self) -> None:
        """Only the Play pages take POSTs (a move, undo, hint); the body is read whole, up to a cap."""
        path = unquote(urlsplit(self.path).path)
        answer = self.play.post(path, self._body()) if self.play is not None else None
        if answer is None:
            self.send_error(HTTPStatus.NOT_FOUND, "Nothing to post to here")
            return
        self.copyfile(self._send_bytes(answer.body, answer.content_type, answer.status), self.wfile)

    def _body(self) -> bytes:
        try:
            length = int(self.headers.get("Content-Length") or 0)
        except ValueError:
            length = 0
        return self.rfile.read(min(max(length, 0), MAX_POST + 1))

    def _send_bytes(self, data: bytes, content_type: str, status: int = HTTPStatus.OK) -> IO[bytes]:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        return io.BytesIO(data)

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-store")
        super().end_headers()

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet: the terminal shows one line per rebuild, not one per request."""


class _ServerV6(ThreadingHTTPServer):
    """The same server on an IPv6 address (`--host ::1`): the standard one listens on IPv4 only."""

    address_family = socket.AF_INET6


class PreviewServer:
    """An HTTP server in a daemon thread; a context manager that stops it cleanly on the way out."""

    def __init__(self, root: Path, host: str, port: int, state: BuildState, placeholder: bytes,
                 play: PlayTables | None = None) -> None:
        handler = partial(PreviewHandler, root=root, state=state, placeholder=placeholder, play=play)
        server = _ServerV6 if ":" in host else ThreadingHTTPServer
        try:
            self.httpd = server((host, port), handler)
        except OSError as exc:
            hint = "try another --host" if port == 0 else "try another --port, or --port 0 for any free one"
            raise UsageError(f"cannot listen on {host}:{port}: {exc.strerror or exc} ({hint})") from None
        self.httpd.daemon_threads = True
        self.host = host
        self.thread = threading.Thread(target=self.httpd.serve_forever, name="pnp-serve", daemon=True)

    @property
    def url(self) -> str:
        port = self.httpd.server_address[1]
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{port}/"

    def __enter__(self) -> PreviewServer:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join(timeout=5)
