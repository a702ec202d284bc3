"""The live preview's web server: output/ over HTTP, plus the build state the gallery page polls.

Standard library only (`http.server`): a preview for one designer needs
nothing more, and it adds no dependency. Connections wait in a real listen
backlog (BACKLOG) and are answered by a bounded pool of threads (WORKERS),
so a page loading hundreds of faces at once, or a burst of clients, is
served in turn instead of refused; an idle client is dropped after
IDLE_SECONDS. It serves regular files under output/ and nothing else: no
folder listings, no dot-files (the build cache, even through a symlink),
nothing a symlink or `..` leads outside, and every response says `no-store`,
so a reload always shows the newest build. On a loopback address it answers
only requests whose Host header names this machine (`localhost`, the bound
address, or a name given with `--allow-host`): a web page cannot reach the
preview by pointing a name of its own at 127.0.0.1 (DNS rebinding).

Routes other than files are a small table (`Route`): `GET /__pnp/status`
answers `{"generation": N, "error": "file:line: ..." | null}`; the page
reloads itself when N changes and shows the error on top while there is one.
The Play pages (`generator.cli.playweb.PlayTables`) answer GETs and POSTs under
`/__pnp/play/`, behind the same Host check.
"""

from __future__ import annotations

import io
import ipaddress
import json
import mimetypes
import os
import queue
import socket
import socketserver
import sys
import threading
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import partial
from http import HTTPStatus
from http.server import SimpleHTTPRequestHandler
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any
from urllib.parse import unquote, urlsplit

from generator.errors import PnpError, UsageError

if TYPE_CHECKING:
    from generator.cli.playweb import PlayTables

STATUS_PATH = "/__pnp/status"
BACKLOG = 512  # connections the kernel holds while every worker is busy (capped by net.core.somaxconn)
WORKERS = 16  # threads answering requests: enough for a browser's parallel loads, bounded under a flood
PENDING = 256  # accepted connections waiting for a worker at most; past that, the backlog holds them
SHUTDOWN_POLL = 0.05  # seconds between the accept loop's looks for a stop request
IDLE_SECONDS = 15  # a client that sends nothing for this long is dropped (it would hold a worker)
LOCAL_NAMES = ("localhost", "127.0.0.1", "::1")
MAX_POST = 64 * 1024  # a Play page's request is a few hundred bytes

# A route answers one path: it sends the status and headers and returns the body to copy (or None).
Route = Callable[["PreviewHandler"], "IO[bytes] | None"]


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


def is_loopback(host: str) -> bool:
    """Whether `host` (an address or `localhost`) keeps the server on this machine."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def allowed_hosts(bound: str, extra: Iterable[str] = ()) -> frozenset[str] | None:
    """The Host header names a loopback server answers (lower case, without port); None: any name
    (a server the user opened to the network answers whatever name reaches it)."""
    if not is_loopback(bound):
        return None
    return frozenset(name.lower().strip("[]") for name in (*LOCAL_NAMES, bound, *extra))


def _host_name(header: str) -> str:
    """The name in a Host header, without its port: `[::1]:8000` -> `::1`, `Localhost:80` -> `localhost`."""
    header = header.strip().lower()
    if header.startswith("["):
        return header[1:].partition("]")[0]
    name, colon, port = header.rpartition(":")
    return name if colon and port.isdigit() and ":" not in name else header


class PreviewHandler(SimpleHTTPRequestHandler):
    """Files under `root` (read-only), the routes, and a placeholder page until the first gallery."""

    disable_nagle_algorithm = True  # headers and body go out as they are written, not 40 ms later
    timeout = IDLE_SECONDS

    def __init__(self, *args: Any, root: Path, routes: Mapping[str, Route], placeholder: bytes,
                 hosts: frozenset[str] | None, play: PlayTables | None = None, **kwargs: Any) -> None:
        self.root = root
        self.routes = routes
        self.placeholder = placeholder
        self.hosts = hosts
        self.play = play  # the Play pages' routes (generator.cli.playweb), under /__pnp/play/
        super().__init__(*args, directory=str(root), **kwargs)

    def _host_allowed(self) -> bool:
        """Whether the Host header names this machine (or any name, on a server opened to the network);
        answers 403 when it does not."""
        host = self.headers.get("Host")
        if self.hosts is not None and host is not None and _host_name(host) not in self.hosts:
            self.send_error(HTTPStatus.FORBIDDEN, "Host not allowed",
                            "This preview answers only localhost; start pnp serve with --allow-host NAME "
                            "to reach it by another name.")
            return False
        return True

    def send_head(self) -> IO[bytes] | None:  # type: ignore[override]  # the base class types it as BytesIO | BinaryIO
        if not self._host_allowed():
            return None
        path = unquote(urlsplit(self.path).path)
        route = self.routes.get(path)
        if route is not None:
            return route(self)
        if self.play is not None and (answer := self.play.get(path)) is not None:
            return self.send_bytes(answer.body, answer.content_type, answer.status)
        return self._send_file(path)

    def do_POST(self) -> None:
        """Only the Play pages take POSTs (a move, undo, hint); the body is read whole, up to a cap."""
        if not self._host_allowed():
            return
        path = unquote(urlsplit(self.path).path)
        answer = self.play.post(path, self._body()) if self.play is not None else None
        if answer is None:
            self.send_error(HTTPStatus.NOT_FOUND, "Nothing to post to here")
            return
        self.copyfile(self.send_bytes(answer.body, answer.content_type, answer.status), self.wfile)

    def _body(self) -> bytes:
        try:
            length = int(self.headers.get("Content-Length") or 0)
        except ValueError:
            length = 0
        return self.rfile.read(min(max(length, 0), MAX_POST + 1))

    def _send_file(self, path: str) -> IO[bytes] | None:
        relative = path.lstrip("/")
        if relative == "" or relative.endswith("/"):
            relative += "index.html"
        target = self._inside(relative)
        if target is None:
            if relative == "index.html":
                return self.send_bytes(self.placeholder, "text/html; charset=utf-8")
            self.send_error(HTTPStatus.NOT_FOUND, "Not a file in output/")
            return None
        try:
            handle = target.open("rb")
        except OSError:  # removed or replaced by a folder since: as if it had never been there
            self.send_error(HTTPStatus.NOT_FOUND, "Not a file in output/")
            return None
        # The size of the file opened, not of whatever the path names now: a rebuild may have replaced it.
        size = os.fstat(handle.fileno()).st_size
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", mimetypes.guess_type(target.name)[0] or "application/octet-stream")
        self.send_header("Content-Length", str(size))
        self.end_headers()
        return handle

    def _inside(self, relative: str) -> Path | None:
        """The regular file `relative` names under the root, or None (outside, hidden, missing, a folder).
        Hidden is judged on the name asked for and on where its links lead: a link into .cache is hidden."""
        if "\0" in relative or any(part.startswith(".") for part in relative.split("/")):
            return None
        root = self.root.resolve()
        try:
            target = (root / relative).resolve()
            if not target.is_relative_to(root) or not target.is_file():
                return None
        except OSError:  # a name too long, a loop of links: not a file we serve
            return None
        if any(part.startswith(".") for part in target.relative_to(root).parts):
            return None
        return target

    def send_bytes(self, data: bytes, content_type: str, status: int = HTTPStatus.OK) -> IO[bytes]:
        """Answer `status` (200) with `data`: what a route returns for a body it made in memory."""
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


def status_route(state: BuildState) -> Route:
    """`GET /__pnp/status`: the build state the page polls."""
    return lambda handler: handler.send_bytes(state.as_json(), "application/json")


def _hung_up(error: BaseException | None) -> bool:
    """A client that went away (closed the tab, stopped a download, timed out): nothing to report."""
    return isinstance(error, (ConnectionError, TimeoutError))


class PoolServer(socketserver.TCPServer):
    """An HTTP server with a real listen backlog whose requests a bounded pool of threads answers.

    The standard `ThreadingHTTPServer` listens with a backlog of 5 and starts a thread per
    connection: a burst of clients overflows the backlog (their connects wait for the kernel's
    retries, seconds each) while the threads are unbounded. Here the backlog is BACKLOG, the
    threads WORKERS (daemons: a client holding a connection never delays Ctrl-C), and at most
    PENDING accepted connections wait for one."""

    allow_reuse_address = True
    request_queue_size = BACKLOG

    def __init__(self, address: tuple[str, int], handler: Callable[..., Any], family: int) -> None:
        self.address_family = family
        self._waiting: queue.Queue[tuple[Any, Any] | None] = queue.Queue(maxsize=PENDING)
        self._workers: list[threading.Thread] = []
        super().__init__(address, handler)  # a failed bind closes the socket (server_close) and raises
        self._workers = [threading.Thread(target=self._work, name=f"pnp-serve-{n}", daemon=True)
                         for n in range(WORKERS)]
        for worker in self._workers:
            worker.start()

    def process_request(self, request: Any, client_address: Any) -> None:
        self._waiting.put((request, client_address))  # full: the accept loop waits, clients wait in the backlog

    def _work(self) -> None:
        while (item := self._waiting.get()) is not None:
            request, client_address = item
            try:
                self.finish_request(request, client_address)
            except Exception:
                self.handle_error(request, client_address)
            finally:
                self.shutdown_request(request)
                self._waiting.task_done()

    def wait_idle(self) -> None:
        """Return once every connection accepted so far has been answered (or dropped)."""
        self._waiting.join()

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client hanging up is not an error; anything else is a bug, and keeps its traceback."""
        if not _hung_up(sys.exc_info()[1]):
            super().handle_error(request, client_address)

    def server_close(self) -> None:
        super().server_close()
        for _worker in self._workers:
            try:
                self._waiting.put_nowait(None)
            except queue.Full:  # workers busy with a backlog: they are daemons, and end with the process
                break


class PreviewServer:
    """An HTTP server in a daemon thread; a context manager that stops it cleanly on the way out.

    `routes` adds answers for paths of their own (a page, an API) beside the files and the status."""

    def __init__(self, root: Path, host: str, port: int, state: BuildState, placeholder: bytes,
                 routes: Mapping[str, Route] | None = None, allow_hosts: Iterable[str] = (),
                 play: PlayTables | None = None) -> None:
        if not host.strip():
            raise UsageError("--host '': an empty address listens on every network interface; "
                             "give --host 0.0.0.0 to mean that, or keep the default 127.0.0.1")
        table = {STATUS_PATH: status_route(state), **(routes or {})}
        handler = partial(PreviewHandler, root=root, routes=table, placeholder=placeholder,
                          hosts=allowed_hosts(host, allow_hosts), play=play)
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        try:
            self.httpd = PoolServer((host, port), handler, family)
        except OSError as exc:
            hint = "try another --host" if port == 0 else "try another --port, or --port 0 for any free one"
            raise UsageError(f"cannot listen on {host}:{port}: {exc.strerror or exc} ({hint})") from None
        self.host = host
        # the accept loop looks for a stop request every SHUTDOWN_POLL s: stopping the server (Ctrl-C, the
        # end of a test) waits at most that long, where socketserver's default is half a second
        self.thread = threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": SHUTDOWN_POLL},
                                       name="pnp-serve", daemon=True)

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
