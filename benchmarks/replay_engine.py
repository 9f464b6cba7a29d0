"""A protocol engine that only replays recorded replies, in order: as cheap as the echo engine
per message, but with replies of real size and content, so the harness does its full work on
them. benchmarks/harness.py records the replies from the reference engine first; the harness
sends the same requests in the same order (the corpus run is deterministic).

    python benchmarks/replay_engine.py REPLIES_FILE     (one reply per line, without "seq")
"""

import json
import sys

with open(sys.argv[1], encoding="utf-8") as f:
    replies = [line.rstrip("\n") for line in f]
out = sys.stdout
for i, line in enumerate(sys.stdin):
    msg = json.loads(line)
    if msg.get("cmd") == "bye" or i >= len(replies):
        break
    body = replies[i]
    out.write(f'{{"seq":{msg["seq"]}{"," if body != "{}" else ""}{body[1:]}\n')
    out.flush()
