"""The trivial engine of the protocol benchmark: answers every request at once with a fixed,
valid reply (the floor of any stdio harness's round trip). It parses nothing but the `seq` the
harness writes first in every request, so the round trip is the pipe and the harness alone."""

import sys

HELLO = b'"protocol":"1","engine":{"name":"echo","version":"0"},"rulesets":[]}\n'
LEGAL = b'"player":null,"decision":"none","actions":[]}\n'

out = sys.stdout.buffer
for line in sys.stdin.buffer:
    seq = line[7 : line.index(b",")]  # the harness writes {"seq":N,"cmd":... in that order
    if b'"cmd":"bye"' in line:
        break
    out.write(b'{"seq":' + seq + b"," + (HELLO if b'"cmd":"hello"' in line else LEGAL))
    out.flush()
