"""Headless Chromium for the browser tests (tests/docs/ for the site, tests/conformance/ for a
reproducer's replay.html): Debian's chromium driven over the DevTools protocol with the standard
library only; the tests skip when it is missing. The browser sees no Korean system font (a
fontconfig of its own hides every font fc-list says has Korean), as a reader's machine without one."""

from __future__ import annotations

import base64
import contextlib
import json
import os
import shutil
import socket
import struct
import subprocess
import tempfile
import time
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape as xml_escape

import pytest

CHROMIUM = Path(os.environ.get("GOSTOP_CHROMIUM", "/usr/bin/chromium"))


class DevTools:
    """A minimal Chrome DevTools Protocol client over one websocket (RFC 6455, client side)."""

    def __init__(self, ws_url: str) -> None:
        u = urllib.parse.urlsplit(ws_url)
        self.sock = socket.create_connection((u.hostname or "127.0.0.1", u.port or 80), timeout=60)
        key = base64.b64encode(os.urandom(16)).decode()
        request = (
            f"GET {u.path} HTTP/1.1\r\nHost: {u.hostname}:{u.port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        )
        self.sock.sendall(request.encode())
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise ConnectionError("the DevTools websocket closed during the handshake")
            data += chunk
        head, self.buf = data.split(b"\r\n\r\n", 1)
        if b" 101 " not in head.split(b"\r\n", 1)[0]:
            raise ConnectionError(head.decode(errors="replace"))
        self.next_id = 0
        self.events: list[dict[str, Any]] = []

    def close(self) -> None:
        self.sock.close()

    def _read(self, n: int) -> bytes:
        while len(self.buf) < n:
            chunk = self.sock.recv(1 << 16)
            if not chunk:
                raise ConnectionError("the DevTools websocket closed")
            self.buf += chunk
        out, self.buf = self.buf[:n], self.buf[n:]
        return out

    def _send(self, opcode: int, payload: bytes) -> None:
        n = len(payload)
        head = bytes([0x80 | opcode])
        if n < 126:
            head += bytes([0x80 | n])
        elif n < 1 << 16:
            head += bytes([0x80 | 126]) + struct.pack(">H", n)
        else:
            head += bytes([0x80 | 127]) + struct.pack(">Q", n)
        mask = os.urandom(4)
        self.sock.sendall(head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))

    def _message(self) -> dict[str, Any]:
        parts = []
        while True:
            b1, b2 = self._read(2)
            n = b2 & 0x7F
            if n == 126:
                n = struct.unpack(">H", self._read(2))[0]
            elif n == 127:
                n = struct.unpack(">Q", self._read(8))[0]
            mask = self._read(4) if b2 & 0x80 else b""
            payload = self._read(n)
            if mask:
                payload = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
            opcode = b1 & 0x0F
            if opcode == 0x9:
                self._send(0xA, payload)
            elif opcode == 0x8:
                raise ConnectionError("the browser closed the DevTools websocket")
            elif opcode in (0x0, 0x1, 0x2):
                parts.append(payload)
                if b1 & 0x80:
                    loaded: dict[str, Any] = json.loads(b"".join(parts).decode())
                    return loaded

    def call(self, method: str, params: dict[str, Any] | None = None, timeout: float = 60) -> dict[str, Any]:
        self.next_id += 1
        mid = self.next_id
        self._send(0x1, json.dumps({"id": mid, "method": method, "params": params or {}}).encode())
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            msg = self._message()
            if msg.get("id") == mid:
                if "error" in msg:
                    raise RuntimeError(f"{method}: {msg['error']}")
                result: dict[str, Any] = msg.get("result", {})
                return result
            if "method" in msg:
                self.events.append(msg)
        raise TimeoutError(method)

    def wait_for(self, event: str, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if any(e["method"] == event for e in self.events):
                return
            self.events.append(self._message())
        raise TimeoutError(event)

    def evaluate(self, expression: str) -> Any:
        result = self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True, "awaitPromise": True})
        if "exceptionDetails" in result:
            raise AssertionError(f"{expression[:80]}...: {result['exceptionDetails']}")
        return result["result"].get("value")

    def errors(self) -> list[str]:
        out = []
        for e in self.events:
            p = e.get("params", {})
            if e["method"] == "Runtime.exceptionThrown":
                out.append("exception: " + json.dumps(p.get("exceptionDetails", {}))[:400])
            elif e["method"] == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert"):
                out.append("console." + p["type"] + ": " + json.dumps(p.get("args", []))[:400])
            elif e["method"] == "Log.entryAdded" and p.get("entry", {}).get("level") == "error":
                entry = p["entry"]
                out.append(f"log: {entry.get('text')} {entry.get('url', '')}")
        return out


def fontconfig_without_korean(folder: Path) -> Path:
    """A fontconfig file for the browser: the one in force, less every font that has Korean, so that the
    browser tests see the site as a reader whose machine has no Korean font (fc-list names them)."""
    base = os.environ.get("FONTCONFIG_FILE") or "/etc/fonts/fonts.conf"
    fc_list = shutil.which("fc-list")
    korean: list[str] = []
    if fc_list is not None:
        listed = subprocess.run([fc_list, "--format=%{file}\\n", ":lang=ko"], capture_output=True, text=True, check=True, timeout=60)
        korean = sorted(set(listed.stdout.split("\n")) - {""})
    reject = "".join(f"<glob>{xml_escape(path)}</glob>" for path in korean)
    conf = folder / "fonts.conf"
    conf.write_text(
        '<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">\n<fontconfig>\n'
        f"  <include>{xml_escape(base)}</include>\n"
        + (f"  <selectfont><rejectfont>{reject}</rejectfont></selectfont>\n" if reject else "")
        + f"  <cachedir>{xml_escape(str(folder / 'fontconfig-cache'))}</cachedir>\n</fontconfig>\n",
        encoding="utf-8",
    )
    if fc_list is not None:
        env = {**os.environ, "FONTCONFIG_FILE": str(conf)}
        left = subprocess.run([fc_list, ":lang=ko", "file"], capture_output=True, text=True, check=True, timeout=60, env=env)
        assert not left.stdout.strip(), f"Korean fonts the browser would still see:\n{left.stdout}"
    return conf


@contextlib.contextmanager
def chromium() -> Iterator[DevTools]:
    """A headless Chromium with one page, 1280 x 2000, its Page, Runtime and Log domains enabled."""
    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} is missing: install Debian's chromium (apt-get install chromium) to run the browser tests")
    profile = tempfile.mkdtemp(prefix="gostop-chromium-")
    fonts = fontconfig_without_korean(Path(profile))
    log = open(Path(profile) / "chromium.log", "w")  # noqa: SIM115
    proc = subprocess.Popen(
        [
            str(CHROMIUM),
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            "--no-default-browser-check",
            "--hide-scrollbars",
            "--mute-audio",
            f"--user-data-dir={profile}",
            "--remote-debugging-port=0",
            "--window-size=1280,2000",
            "about:blank",
        ],
        stdout=log,
        stderr=log,
        env={**os.environ, "FONTCONFIG_FILE": str(fonts)},
    )
    tools: DevTools | None = None
    try:
        port_file = Path(profile) / "DevToolsActivePort"
        deadline = time.monotonic() + 60
        while not (port_file.exists() and port_file.read_text().strip()):
            if proc.poll() is not None or time.monotonic() > deadline:
                pytest.fail("chromium did not start:\n" + (Path(profile) / "chromium.log").read_text()[-3000:])
            time.sleep(0.1)
        port = int(port_file.read_text().split()[0])
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=30) as reply:
            targets = json.load(reply)
        page = next(t for t in targets if t.get("type") == "page")
        tools = DevTools(page["webSocketDebuggerUrl"])
        for domain in ("Page", "Runtime", "Log"):
            tools.call(f"{domain}.enable")
        tools.call("Emulation.setDeviceMetricsOverride", {"width": 1280, "height": 2000, "deviceScaleFactor": 1, "mobile": False})
        yield tools
    finally:
        if tools is not None:
            tools.close()
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=15)
        log.close()
        shutil.rmtree(profile, ignore_errors=True)
