"""The engine process the harness starts when the mutating engine runs as a fork server:

    python -S zygote_launcher.py SOCKET ARG...

It imports nothing of the engine (it starts in a few milliseconds where the engine takes a quarter
of a second): it hands its stdin, stdout and stderr and the engine's arguments to the fork server
listening on SOCKET (`mutating_engine.py serve-zygote SOCKET`), whose forked child serves the
protocol on them, then waits for that child's exit code and exits with it. To the harness it is
one engine process that answers, lives and dies as the child does (mutating_engine.py, "the fork
server").
"""

import socket
import sys


def main(argv: list[str]) -> int:
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
        conn.connect(argv[0])
        socket.send_fds(conn, ["\0".join(argv[1:]).encode("utf-8", "surrogateescape")], [0, 1, 2])
        status = b""
        while chunk := conn.recv(64):
            status += chunk
    return int(status) if status.strip() else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
