"""The trivial engine of the protocol benchmark: answers every request at once with a fixed,
valid reply (the floor of any stdio harness's round trip)."""

import json
import sys

HELLO = {"protocol": "1", "engine": {"name": "echo", "version": "0"}, "rulesets": []}
LEGAL = {"player": None, "decision": "none", "actions": []}

for line in sys.stdin:
    msg = json.loads(line)
    reply = HELLO if msg.get("cmd") == "hello" else LEGAL
    sys.stdout.write(json.dumps({"seq": msg["seq"], **reply}) + "\n")
    sys.stdout.flush()
    if msg.get("cmd") == "bye":
        break
