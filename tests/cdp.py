"""A headless Chromium page the test can talk to while it stays open (DevTools protocol over a pipe).

Standard library only (no websocket client needed): Chromium's `--remote-debugging-pipe` reads commands on
fd 3 and writes answers on fd 4, each a JSON message ended by a NUL byte.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from typing import Any

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")


class Page:
    """One browser tab: `evaluate` runs JavaScript in it, `wait_for` polls a JavaScript condition."""

    def __init__(self, url: str) -> None:
        assert CHROMIUM is not None
        self.profile = tempfile.TemporaryDirectory()
        commands_read, self.commands = os.pipe()
        self.answers, answers_write = os.pipe()
        # Above 10, so that putting one on fd 3 cannot overwrite the other one sitting on fd 3 or 4.
        commands_read, answers_write = (self._high(commands_read), self._high(answers_write))
        # A small Python trampoline puts the pipe ends on fds 3 and 4, where Chromium expects them.
        trampoline = "import os, sys; os.dup2(int(sys.argv[1]), 3); os.dup2(int(sys.argv[2]), 4); os.execv(sys.argv[3], sys.argv[3:])"
        self.process = subprocess.Popen(
            [sys.executable, "-c", trampoline, str(commands_read), str(answers_write), CHROMIUM, "--headless",
             "--no-sandbox", "--disable-gpu", "--no-first-run",
             "--disable-background-networking", "--disable-component-update", "--disable-sync",
             "--disable-extensions", f"--user-data-dir={self.profile.name}", "--remote-debugging-pipe",
             "--window-size=1200,900", "about:blank"],
            pass_fds=(commands_read, answers_write), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        os.close(commands_read)
        os.close(answers_write)
        self.buffer = b""
        self.next_id = 0
        target = self.send("Target.createTarget", {"url": url})["targetId"]
        self.session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]

    @staticmethod
    def _high(fd: int) -> int:
        high = fcntl.fcntl(fd, fcntl.F_DUPFD, 10)
        os.close(fd)
        return high

    def send(self, method: str, params: dict[str, Any] | None = None, session: str | None = None) -> Any:
        self.next_id += 1
        message: dict[str, Any] = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self.commands, json.dumps(message).encode() + b"\0")
        while True:
            answer = self._read()
            if answer.get("id") == self.next_id:
                assert "error" not in answer, answer["error"]
                return answer["result"]

    def _read(self) -> dict[str, Any]:
        while b"\0" not in self.buffer:
            chunk = os.read(self.answers, 1 << 16)
            assert chunk, "Chromium closed the DevTools pipe"
            self.buffer += chunk
        message, _, self.buffer = self.buffer.partition(b"\0")
        return json.loads(message)

    def evaluate(self, expression: str) -> Any:
        result = self.send("Runtime.evaluate", {"expression": expression, "returnByValue": True,
                                                "awaitPromise": True}, self.session)
        assert "exceptionDetails" not in result, result["exceptionDetails"]
        return result["result"].get("value")

    def wait_for(self, expression: str, timeout: float = 30, what: str = "") -> Any:
        """The first truthy value of `expression` (evaluated every 0.1 s; a page mid-reload counts as falsy)."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                value = self.evaluate(expression)
            except AssertionError:  # the page is navigating: its context is gone for a moment
                value = None
            if value:
                return value
            assert time.monotonic() < deadline, f"timed out waiting for {what or expression}"
            time.sleep(0.1)

    def close(self) -> None:
        with contextlib.suppress(AssertionError, OSError):
            self.send("Browser.close")
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        os.close(self.commands)
        os.close(self.answers)
        self.profile.cleanup()

    def __enter__(self) -> Page:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
