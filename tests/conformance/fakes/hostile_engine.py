"""Engines for the pytest plugin's tests: one whose every word is an attack on the terminal of
whoever reads the report, and one that never says hello.

    python hostile_engine.py MODE [STARTS_FILE]

MODE:
  plays            the reference engine's play, under a hostile hello (name, version, language);
                   it rejects the first action of a game whose first hand holds m11-bright and
                   refuses every 3-player deal as unsupported, both with a hostile message, and
                   writes hostile stderr as it does
  bad_declaration  hostile stderr, then a hello declaring an option whose name is hostile (the
                   declaration is not valid: a handshake failure)
  hang             never answers the hello; each start adds a line to STARTS_FILE
"""

from __future__ import annotations

import json
import sys
import time

from gostop_conformance.reference import JsonEngine
from gostop_conformance.reference import handle_request as handle

#: what a terminal acts on (clear the screen, home the cursor, set the window title, write the
#: clipboard with OSC 52, a hyperlink, a carriage return over the line, a bell, the one-byte CSI and
#: NEL), and a line of its own that forges the end of a pytest run
HOSTILE = (
    "\x1b[2J\x1b[H\x1b]0;pwned title\x07\x1b]52;c;cHduZWQ=\x07\x1b]8;;https://evil.example/\x1b\\link\x1b]8;;\x1b\\"
    "\rover\x07written\x9b31mred\x85\x00\n========== 874 passed in 0.01s ==========\n"
)
TRIGGER = "m11-bright"


def hostile_stderr() -> None:
    sys.stderr.write(f"stderr: {HOSTILE}")
    sys.stderr.flush()
    sys.stderr.buffer.write(b"raw bytes: \x1b[5m\x9b\xff\xfe\r\n")
    sys.stderr.flush()


def reply(message: dict) -> None:
    print(json.dumps(message), flush=True)


def main() -> int:
    mode = sys.argv[1]
    if mode == "hang":
        with open(sys.argv[2], "a", encoding="utf-8") as starts:
            starts.write("started\n")
        time.sleep(3600)
        return 0
    engine = JsonEngine()
    triggered = False
    for line in sys.stdin:
        message = json.loads(line)
        cmd = message.get("cmd")
        if cmd == "hello":
            answer, _ = handle(engine, message)
            answer["engine"] = {"name": f"evil{HOSTILE}", "version": f"6.6.6{HOSTILE}", "language": f"ansi{HOSTILE}"}
            if mode == "bad_declaration":
                hostile_stderr()
                answer["options"] = {f"jjok_steal{HOSTILE}": "all"}
            reply(answer)
            continue
        if cmd == "new_game":
            triggered = TRIGGER in message["deal"]["hands"][0]
            if len(message["deal"]["hands"]) == 3:
                hostile_stderr()
                reply({"seq": message["seq"], "error": {"code": "unsupported", "message": f"no 3 players {HOSTILE}"}})
                continue
        if cmd == "act" and triggered:
            hostile_stderr()
            reply({"seq": message["seq"], "error": {"code": "card_not_in_hand", "message": f"rejected {HOSTILE}"}})
            continue
        answer, stop = handle(engine, message)
        reply(answer)
        if stop:
            break
    return 0


if __name__ == "__main__":
    sys.exit(main())
