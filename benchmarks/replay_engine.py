"""A protocol engine that only replays recorded replies, in order: the same minimal machinery
as echo_engine.py (it parses nothing but the `seq`), but with replies of real size and content,
so the harness does its full work on them. benchmarks/harness.py records the replies from the
reference engine first; the harness sends the same requests in the same order (the corpus run
is deterministic).

    python benchmarks/replay_engine.py REPLIES_FILE     (one reply per line, without "seq")
"""

import sys

with open(sys.argv[1], "rb") as f:
    bodies = [b"," + line[1:] if line.strip() != b"{}" else b"}\n" for line in f]
out = sys.stdout.buffer
for i, line in enumerate(sys.stdin.buffer):
    if b'"cmd":"bye"' in line or i >= len(bodies):
        break
    out.write(b'{"seq":' + line[7 : line.index(b",")] + bodies[i])
    out.flush()
