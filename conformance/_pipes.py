"""The engine process's pipes, read so that nothing the engine does can stall or flood the
harness: stdout as lines with a deadline and a length limit (LineReader), stderr drained
continuously into a bounded buffer that keeps its first and last part (StderrBuffer)."""

from __future__ import annotations

import os
import select
import threading
import time
from collections import deque
from collections.abc import Callable
from typing import IO, Final

from gostop_conformance.spec import counted

EOF: Final = object()
OVERSIZE: Final = object()
CHUNK: Final = 1 << 16
#: seconds between checks that the engine still runs while its reply is awaited
ALIVE_CHECK: Final = 0.2


class LineReader:
    """Lines from the engine's stdout, read in the calling thread with a deadline (select), so a
    reply costs no thread hand-off; a line longer than `max_line` becomes one OVERSIZE marker."""

    def __init__(self, stream: IO[bytes], max_line: int, alive: Callable[[], bool] | None = None) -> None:
        self.fd = stream.fileno()
        self.alive = alive  # the engine process still runs (EOF may never come while a descendant holds the pipe)
        os.set_blocking(self.fd, False)
        self.buf = bytearray()
        self.pos = 0  # where the unread part of buf starts: lines are taken without moving the rest
        self.max_line = max_line
        self.skipping = False  # inside an oversize line, until its newline
        self.eof = False
        self.dead = False
        self.unterminated = False  # the last line returned had no newline: the output ended inside it

    def read(self, timeout: float) -> object | None:
        """The next line (bytes), OVERSIZE, EOF, or None when the deadline passes first."""
        deadline = time.monotonic() + timeout
        while True:
            nl = self.buf.find(b"\n", self.pos)
            if nl >= 0:
                # a chunk holds many replies when requests went out ahead: deleting each line from
                # the front would move the rest of the buffer every time
                line = bytes(self.buf[self.pos : nl])
                self.pos = nl + 1
                if self.pos == len(self.buf):
                    self.buf.clear()
                    self.pos = 0
                if self.skipping:
                    self.skipping = False
                    continue
                return line if len(line) <= self.max_line else OVERSIZE
            if self.pos:  # only an unfinished line is left: keep just that
                del self.buf[: self.pos]
                self.pos = 0
            if len(self.buf) > self.max_line:
                self.buf.clear()
                if not self.skipping:
                    self.skipping = True
                    return OVERSIZE
            if self.eof:
                if self.buf and not self.skipping:  # the output ended inside this line: the engine stopped mid-reply
                    line, self.buf = bytes(self.buf), bytearray()
                    self.unterminated = True
                    return line
                return EOF
            try:  # a reply sent ahead is often there already: read first, wait only when it is not
                chunk = os.read(self.fd, CHUNK)
            except BlockingIOError:
                if self.dead:  # the engine had exited and its pipe holds nothing more: a descendant keeps it open
                    self.eof = True
                    continue
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return None
                step = remaining if self.alive is None else min(remaining, ALIVE_CHECK)
                ready, _, _ = select.select([self.fd], [], [], step)
                if not ready:
                    if self.alive is not None and not self.alive():
                        self.dead = True  # read once more what it wrote before it went, then it is EOF
                    elif step >= remaining:
                        return None
                continue
            except OSError:
                chunk = b""
            if chunk and not self.buf and not self.skipping and chunk.find(b"\n") == len(chunk) - 1:
                # the usual case: the chunk is exactly one whole reply
                return chunk[:-1] if len(chunk) <= self.max_line else OVERSIZE
            if not chunk:
                self.eof = True
                continue
            self.buf += chunk


class StderrBuffer:
    """Keeps the first and the last part of an engine's stderr, however much it prints."""

    def __init__(self, limit: int) -> None:
        self.head = bytearray()
        self.tail: deque[bytes] = deque()
        self.tail_size = 0
        self.dropped = 0
        self.limit = limit
        self.lock = threading.Lock()
        self.fd: int | None = None

    def settle(self) -> None:
        """Take in what the engine has written so far: an engine that logs its error and then replies
        must not have the log missing from the report. Its stderr was written before the reply was
        read, so it is in the pipe or in the buffer; reading the pipe to empty here, under the lock the
        drain reads under, leaves no chunk read and not yet stored (a wait for the drain thread would
        depend on when the machine schedules it)."""
        with self.lock:
            while self.fd is not None and self._read_stored(self.fd):
                pass

    def drain(self, stream: IO[bytes]) -> None:
        fd = stream.fileno()
        try:
            os.set_blocking(fd, False)
        except (OSError, ValueError):
            return
        self.fd = fd
        try:
            while True:
                try:
                    select.select([fd], [], [])
                except (OSError, ValueError):
                    return
                with self.lock:
                    if self.fd is None:  # settle() has read to the end
                        return
                    self._read_stored(fd)  # nothing, if settle() took it meanwhile
                    if self.fd is None:
                        return
        finally:
            self.fd = None  # all read: nothing for settle() to take in

    def _read_stored(self, fd: int) -> bool:
        """Read one chunk of the pipe without waiting and store it (the lock held): False once nothing
        is waiting; at the end of the pipe (or an error) `fd` is forgotten."""
        try:
            chunk = os.read(fd, CHUNK)
        except BlockingIOError:
            return False
        except (OSError, ValueError):
            self.fd = None
            return False
        if not chunk:
            self.fd = None
            return False
        self._store(chunk)
        return True

    def _store(self, chunk: bytes) -> None:
        room = self.limit // 2 - len(self.head)
        if room > 0:
            self.head += chunk[:room]
            chunk = chunk[room:]
        if chunk:
            self.tail.append(chunk)
            self.tail_size += len(chunk)
            while self.tail_size > self.limit // 2 and len(self.tail) > 1:
                gone = self.tail.popleft()
                self.tail_size -= len(gone)
                self.dropped += len(gone)

    def text(self) -> str:
        with self.lock:
            return self._render()

    def take(self) -> str:
        """What the engine wrote since the last take (its first and last part), and forget it."""
        with self.lock:
            text = self._render()
            self.head, self.tail, self.tail_size, self.dropped = bytearray(), deque(), 0, 0
            return text

    def _render(self) -> str:
        middle = f"\n[... {counted(self.dropped, 'byte')} of stderr dropped ...]\n" if self.dropped else ""
        return bytes(self.head).decode("utf-8", "replace") + middle + b"".join(self.tail).decode("utf-8", "replace")
