"""`pnp serve`: a live gallery in a real browser, and a server that hands out output/ and nothing else."""

from __future__ import annotations

import hashlib
import http.client
import json
import os
import queue
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from types import SimpleNamespace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.cli.server import BuildState, PreviewServer
from generator.errors import DataError, Location, UsageError
from tests.cdp import CHROMIUM, Page
from tests.helpers import copy_sources, edit

TORTUGA = "document.querySelector('img[alt$=\": tortuga\"]')"


def _lines(process: subprocess.Popen[str]) -> queue.Queue[str]:
    lines: queue.Queue[str] = queue.Queue()

    def read() -> None:
        for line in process.stdout or ():
            lines.put(line.rstrip("\n"))

    threading.Thread(target=read, daemon=True).start()
    return lines


@pytest.mark.slow
@pytest.mark.skipif(CHROMIUM is None, reason="Chromium is not installed (.ci/run installs Debian's chromium)")
def test_the_page_follows_saves_shows_errors_and_opens_a_face_with_its_lines(tmp_path: Path) -> None:
    project = copy_sources(tmp_path / "project")
    cards = project.data_dir / "counterattack" / "cards.yaml"
    # The test ends pnp serve with Ctrl-C (SIGINT). A test run started in the background by a non-interactive
    # shell ignores SIGINT, and a child would inherit that: with a handler here, the child starts with the default.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        process = subprocess.Popen(
            [sys.executable, "-m", "generator", "serve", "counterattack", "--paper", "a4", "--port", "0"],
            cwd=project.root, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
            env={**os.environ, "CI": "1"},
        )
    finally:
        signal.signal(signal.SIGINT, previous)
    lines = _lines(process)
    try:
        serving = lines.get(timeout=60)
        assert serving.startswith("serving output/ at http://127.0.0.1:"), serving
        url = serving.split(" at ")[1].split()[0]
        assert lines.get(timeout=120).startswith("start: ")
        with Page(url) as page:
            page.wait_for("document.body.dataset.live === 'yes' && document.body.dataset.imagesDone === 'yes'",
                          what="the gallery, live")
            before = page.evaluate(f"{TORTUGA}.getAttribute('src')")
            page.evaluate("window.notReloaded = true")

            edit(cards, "name: Tortuga,", "name: Tortuga Reef,")
            src = page.wait_for(f"{TORTUGA} && {TORTUGA}.complete && {TORTUGA}.naturalWidth > 0 && "
                                f"{TORTUGA}.getAttribute('src') !== {json.dumps(before)} && {TORTUGA}.getAttribute('src')",
                                what="the new Tortuga face")
            assert page.evaluate("window.notReloaded") is None  # the page reloaded by itself
            face = project.output_dir / "counterattack" / "preview" / "port-tortuga.png"
            assert src == f"counterattack/preview/port-tortuga.png?v={hashlib.sha256(face.read_bytes()).hexdigest()[:12]}"

            edit(cards, "tricks: 3}", "tricks: three}")
            shown = page.wait_for("!document.getElementById('build-error').hidden && "
                                  "document.querySelector('#build-error .message').textContent", what="the error overlay")
            assert shown == ("data/counterattack/cards.yaml:19: port card 'tortuga' 'tricks' must be an integer 0..10, "
                             "got 'three'")
            edit(cards, "tricks: three}", "tricks: 3}")
            page.wait_for("document.getElementById('build-error').hidden", what="the overlay to go")

            page.evaluate(f"{TORTUGA}.closest('figure').click()")
            assert page.evaluate("!document.getElementById('lightbox').hidden")
            box = page.evaluate("""(function () {
                var svg = document.querySelector('#lightbox svg'), r = function (c) { return svg.querySelector(c); };
                var a = function (e) { return ['x', 'y', 'width', 'height'].map(function (k) { return +e.getAttribute(k); }); };
                return {view: svg.getAttribute('viewBox'), bleed: a(r('.line-bleed')), trim: a(r('.line-trim')),
                        safe: a(r('.line-safe')), big: document.querySelector('#lightbox img').getAttribute('src')};
            })()""")
            # A poker card (63 x 88 mm) with 3 mm bleed and the default 3 mm safe margin, in mm.
            assert box["view"] == "0 0 69 94"
            assert box["bleed"] == [0, 0, 69, 94] and box["trim"] == [3, 3, 63, 88] and box["safe"] == [6, 6, 57, 82]
            assert box["big"].endswith(src)
            page.evaluate("document.getElementById('show-safe').click()")
            assert page.evaluate("document.querySelector('#lightbox .group-safe').style.display") == "none"
            assert page.evaluate("document.querySelector('#lightbox .group-trim').style.display") == ""
    finally:
        process.send_signal(signal.SIGINT)  # Ctrl-C
        code = process.wait(timeout=20)
    assert code == 0


@pytest.mark.slow
@pytest.mark.skipif(CHROMIUM is None, reason="Chromium is not installed (.ci/run installs Debian's chromium)")
def test_the_page_keeps_following_a_server_that_restarts(tmp_path: Path) -> None:
    """`pnp serve` stopped and started again (to change --paper, say): an open page waits for it and reloads on
    its next build, where one failed request used to end its polling for good."""
    from generator.build.options import BuildOptions
    from generator.build.session import build

    project = copy_sources(tmp_path / "project")
    build(project, ["counterattack"], BuildOptions(papers=("a4",), exports=("preview",)))

    def built() -> SimpleNamespace:
        return SimpleNamespace(summary=SimpleNamespace(written=["a.pdf"], removed=[]), gallery_written=True)

    first = PreviewServer(project.output_dir, "127.0.0.1", 0, BuildState(), b"").__enter__()
    port, running = first.httpd.server_address[1], True
    try:
        with Page(first.url) as page:
            page.wait_for("document.body.dataset.live === 'yes'", what="the gallery, live")
            page.evaluate("window.notReloaded = true")
            first.__exit__()  # the server stops: the page's next requests fail
            running = False
            time.sleep(1.2)  # the page polls every 0.4 s: at least two of its requests have failed by now
            assert page.evaluate("window.notReloaded") is True  # still the same page, waiting
            again = BuildState()
            again.run(built)  # the restarted server has built once: a new generation
            with PreviewServer(project.output_dir, "127.0.0.1", port, again, b""):
                page.wait_for("window.notReloaded === undefined && document.body.dataset.live === 'yes'",
                              timeout=30, what="the page to reload from the restarted server")
    finally:
        if running:
            first.__exit__()


def _get(server: PreviewServer, path: str) -> tuple[int, bytes, dict[str, str]]:
    port = server.httpd.server_address[1]
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    connection.request("GET", path)  # sent as written: no client-side clean-up of `..`
    response = connection.getresponse()
    body = response.read()
    connection.close()
    return response.status, body, {k.lower(): v for k, v in response.getheaders()}


@pytest.mark.slow
def test_the_server_hands_out_files_under_output_and_nothing_else(tmp_path: Path) -> None:
    output = tmp_path / "project" / "output"
    (output / "game" / "preview").mkdir(parents=True)
    (output / "game" / "preview" / "a card.png").write_bytes(b"\x89PNG face")
    (output / ".cache").mkdir()
    (output / ".cache" / "manifest.json").write_text("{}")
    (tmp_path / "project" / "secret.yaml").write_text("secret")
    (output / "link.yaml").symlink_to(tmp_path / "project" / "secret.yaml")
    state = BuildState()
    with PreviewServer(output, "127.0.0.1", 0, state, b"<p>waiting for the first build</p>") as server:
        assert server.url.startswith("http://127.0.0.1:") and not server.url.endswith(":0/")
        status, body, headers = _get(server, "/game/preview/a%20card.png")
        assert (status, body) == (200, b"\x89PNG face")
        assert headers["content-type"] == "image/png" and headers["cache-control"] == "no-store"
        assert _get(server, "/")[:2] == (200, b"<p>waiting for the first build</p>")  # no gallery yet
        (output / "index.html").write_text("<p>gallery</p>")
        assert _get(server, "/")[:2] == (200, b"<p>gallery</p>")
        for path in ("/../secret.yaml", "/%2e%2e/secret.yaml", "/game/../../secret.yaml", "/link.yaml",
                     "/.cache/manifest.json", "/game/", "/game/preview/missing.png"):
            assert _get(server, path)[0] == 404, path
        assert json.loads(_get(server, "/__pnp/status")[1]) == {"generation": 0, "error": None}


def test_the_build_state_counts_builds_that_changed_files_and_keeps_the_last_error() -> None:
    state = BuildState()

    def built(written: list[str], gallery: bool = False) -> SimpleNamespace:
        return SimpleNamespace(summary=SimpleNamespace(written=written, removed=[]), gallery_written=gallery)

    def failing() -> None:
        raise DataError("port card 'tortuga' 'tricks' must be an integer 0..10, got 'three'",
                        Location("data/counterattack/cards.yaml", 19))

    state.run(lambda: built(["a.pdf"]))
    state.run(lambda: built([]))  # nothing changed: the page need not reload
    with pytest.raises(DataError):
        state.run(failing)
    assert json.loads(state.as_json()) == {
        "generation": 1,
        "error": "data/counterattack/cards.yaml:19: port card 'tortuga' 'tricks' must be an integer 0..10, got 'three'",
    }
    state.run(lambda: built([], gallery=True))
    assert json.loads(state.as_json()) == {"generation": 2, "error": None}


SEGMENTS = st.sampled_from(["", ".", "..", "%2e%2e", "%2E.", ".cache", "manifest.json", "game", "preview",
                            "a%20card.png", "link.yaml", "secret.yaml", "index.html", "%2f", "\\..",
                            "..%2f..", "%00", "~"])


@pytest.mark.slow
def test_any_request_path_gets_a_file_under_output_or_nothing(tmp_path: Path) -> None:
    output = tmp_path / "project" / "output"
    (output / "game" / "preview").mkdir(parents=True)
    (output / "game" / "preview" / "a card.png").write_bytes(b"face")
    (output / "index.html").write_text("gallery")
    (output / ".cache").mkdir()
    (output / ".cache" / "manifest.json").write_text("{}")
    (tmp_path / "project" / "secret.yaml").write_text("secret")
    (output / "link.yaml").symlink_to(tmp_path / "project" / "secret.yaml")
    served = {(output / "game" / "preview" / "a card.png").read_bytes(), b"gallery"}

    with PreviewServer(output, "127.0.0.1", 0, BuildState(), b"placeholder") as server:
        @settings(max_examples=150, deadline=None)
        @given(st.lists(SEGMENTS, min_size=1, max_size=6))
        def check(segments: list[str]) -> None:
            status, body, _ = _get(server, "/" + "/".join(segments))
            assert status == 404 or (status == 200 and body in served), (segments, status, body)

        check()


@pytest.mark.slow
def test_a_port_in_use_is_a_one_line_error(tmp_path: Path) -> None:
    with PreviewServer(tmp_path, "127.0.0.1", 0, BuildState(), b"") as taken:
        port = taken.httpd.server_address[1]
        with pytest.raises(UsageError) as caught:
            PreviewServer(tmp_path, "127.0.0.1", port, BuildState(), b"")
    message = str(caught.value)
    assert message.startswith(f"cannot listen on 127.0.0.1:{port}: ") and "--port 0" in message
    assert "\n" not in message


def _ipv6_loopback() -> bool:
    import socket

    try:
        with socket.socket(socket.AF_INET6, socket.SOCK_STREAM) as probe:
            probe.bind(("::1", 0))
    except OSError:
        return False
    return True


@pytest.mark.slow
@pytest.mark.skipif(not _ipv6_loopback(), reason="this machine has no IPv6 loopback")
def test_an_ipv6_host_is_served(tmp_path: Path) -> None:
    (tmp_path / "index.html").write_text("<p>gallery</p>")
    with PreviewServer(tmp_path, "::1", 0, BuildState(), b"") as server:
        assert server.url.startswith("http://[::1]:")
        connection = http.client.HTTPConnection("::1", server.httpd.server_address[1], timeout=10)
        connection.request("GET", "/")
        assert connection.getresponse().read() == b"<p>gallery</p>"
        connection.close()


def test_a_host_that_cannot_be_listened_on_names_the_host_not_the_port(tmp_path: Path) -> None:
    with pytest.raises(UsageError) as caught:
        PreviewServer(tmp_path, "192.0.2.1", 0, BuildState(), b"")  # TEST-NET-1: never this machine's
    assert "try another --host" in str(caught.value) and "--port 0" not in str(caught.value)


# --- many clients, replaced files, clients that hang up, names and addresses ------------------------------


def _burst(port: int, clients: int, bound: float) -> list[bytes]:
    """`clients` GETs of /face.png opened at once from non-blocking sockets; each client's whole reply
    (b"" for one that failed or was not answered within `bound` seconds, which ends a broken run)."""
    import selectors
    import socket

    chooser = selectors.DefaultSelector()
    replies = [b""] * clients
    for number in range(clients):
        client = socket.socket()
        client.setblocking(False)
        client.connect_ex(("127.0.0.1", port))
        chooser.register(client, selectors.EVENT_WRITE, number)
    deadline = time.monotonic() + bound
    while chooser.get_map() and time.monotonic() < deadline:
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
                chooser.unregister(client)
                client.close()
    for key in list(chooser.get_map().values()):
        key.fileobj.close()  # type: ignore[union-attr]
    return replies


@pytest.mark.slow
def test_a_burst_of_500_clients_at_once_is_served_in_full(tmp_path: Path) -> None:
    """The standard server's backlog of 5 dropped connections under a burst (59 of 500 failed, the slowest
    waited 59 s for the kernel's retries); with a real backlog and a bounded pool every client is answered."""
    face = b"\x89PNG" + bytes(range(256)) * 8
    (tmp_path / "face.png").write_bytes(face)
    with PreviewServer(tmp_path, "127.0.0.1", 0, BuildState(), b"") as server:
        replies = _burst(server.httpd.server_address[1], 500, bound=20)
    served = [r for r in replies if r.startswith(b"HTTP/1.0 200 ") and r.endswith(b"\r\n\r\n" + face)]
    assert len(served) == 500


@pytest.mark.slow
def test_content_length_is_the_size_of_the_file_sent_while_files_are_replaced(tmp_path: Path) -> None:
    """A rebuild replaces files by renaming a new one over the old: the length sent is the opened file's."""
    versions = [b"small" * 20, b"large" * 40_000]
    face = tmp_path / "face.png"
    face.write_bytes(versions[0])
    stop = threading.Event()

    def replace() -> None:
        turn = 0
        while not stop.is_set():
            turn += 1
            (tmp_path / "next.png").write_bytes(versions[turn % 2])
            os.replace(tmp_path / "next.png", face)

    replacer = threading.Thread(target=replace, daemon=True)
    with PreviewServer(tmp_path, "127.0.0.1", 0, BuildState(), b"") as server:
        replacer.start()
        try:
            for _ in range(400):
                connection = http.client.HTTPConnection("127.0.0.1", server.httpd.server_address[1], timeout=10)
                connection.request("GET", "/face.png")
                response = connection.getresponse()
                body = response.read()  # IncompleteRead when the length promised more than was sent
                connection.close()
                assert int(response.getheader("Content-Length") or -1) == len(body) and body in versions
        finally:
            stop.set()
            replacer.join()


@pytest.mark.slow
def test_a_client_that_hangs_up_mid_download_prints_nothing(tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    import socket
    import struct

    (tmp_path / "big.pdf").write_bytes(b"%PDF" + b"x" * 8_000_000)
    with PreviewServer(tmp_path, "127.0.0.1", 0, BuildState(), b"") as server:
        for _ in range(3):
            client = socket.create_connection(("127.0.0.1", server.httpd.server_address[1]), timeout=10)
            client.sendall(b"GET /big.pdf HTTP/1.0\r\nHost: localhost\r\n\r\n")
            client.recv(100)
            client.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            client.close()  # a reset, as a closed tab or a stopped download sends
        late = socket.create_connection(("127.0.0.1", server.httpd.server_address[1]), timeout=10)
        late.close()  # connected and gone before asking anything
        server.httpd.wait_idle()
        assert _get(server, "/big.pdf")[0] == 200  # and the server carries on
    assert capfd.readouterr().err == ""


@pytest.mark.slow
def test_a_link_into_the_build_cache_is_not_served(tmp_path: Path) -> None:
    output = tmp_path / "output"
    (output / ".cache").mkdir(parents=True)
    (output / ".cache" / "manifest.json").write_text("{}")
    (output / "game").mkdir()
    (output / "game" / "cache.json").symlink_to(output / ".cache" / "manifest.json")
    (output / "cache").symlink_to(output / ".cache")
    (output / "game" / "face.png").write_bytes(b"face")
    (output / "face-link.png").symlink_to(output / "game" / "face.png")  # inside output/, not hidden: fine
    with PreviewServer(output, "127.0.0.1", 0, BuildState(), b"") as server:
        assert _get(server, "/game/cache.json")[0] == 404
        assert _get(server, "/cache/manifest.json")[0] == 404
        assert _get(server, "/face-link.png")[:2] == (200, b"face")


def _get_as(server: PreviewServer, host: str) -> int:
    connection = http.client.HTTPConnection("127.0.0.1", server.httpd.server_address[1], timeout=10)
    connection.putrequest("GET", "/index.html", skip_host=True)
    connection.putheader("Host", host)
    connection.endheaders()
    status = connection.getresponse().status
    connection.close()
    return status


@pytest.mark.slow
def test_on_loopback_only_requests_for_this_machines_names_are_answered(tmp_path: Path) -> None:
    """DNS rebinding: a page on evil.example points its name at 127.0.0.1 and reads the preview. The Host
    header it sends names evil.example, which a loopback server refuses."""
    (tmp_path / "index.html").write_text("gallery")
    with PreviewServer(tmp_path, "127.0.0.1", 0, BuildState(), b"", allow_hosts=("studio.lan",)) as server:
        port = server.httpd.server_address[1]
        for host in ("localhost", f"localhost:{port}", f"LOCALHOST:{port}", f"127.0.0.1:{port}", "[::1]:80",
                     "studio.lan", f"studio.lan:{port}"):
            assert _get_as(server, host) == 200, host
        for host in ("evil.example", f"evil.example:{port}", "localhost.evil.example", "127.0.0.1.evil.example",
                     "studio.lan.evil.example"):
            assert _get_as(server, host) == 403, host


def test_an_empty_host_is_refused_rather_than_listening_everywhere(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="every network interface"):
        PreviewServer(tmp_path, "", 0, BuildState(), b"")


@pytest.mark.slow
def test_quiet_keeps_the_warning_that_the_preview_is_on_the_network(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from tests.helpers import run_pnp

    project = copy_sources(tmp_path / "project")
    seen: dict[str, object] = {}
    monkeypatch.setattr("generator.cli.watch.watch_and_build", lambda *args, **kwargs: seen.update(kwargs))
    code, _out, err = run_pnp(capsys, "--root", str(project.root), "-q", "serve", "--host", "0.0.0.0", "--port", "0",
                              "--force")
    assert code == 0, err
    assert "warning: --host 0.0.0.0: other machines on the network can see the preview" in err
    assert seen["force"] is True  # the overlay's advice, "build anyway with --force", can be followed
    code, _out, err = run_pnp(capsys, "--root", str(project.root), "serve", "--host", "", "--port", "0")
    assert code == 2 and err.count("\n") == 1 and "--host ''" in err and "Traceback" not in err
