"""A misbehaving engine for the harness self-tests (like bowtie's fake implementations).

    python fake_engine.py MODE [ARG]

It serves the protocol correctly (through the reference engine) except in a game whose first
hand holds the trigger card m11-bright, where MODE decides what goes wrong at the first `act`.
Modes that break at start-up (crash_at_start, slow_start) do so for every game.
"""

from __future__ import annotations

import json
import os
import sys
import time

from gostop_conformance.reference import JsonEngine
from gostop_conformance.reference import handle_request as handle

TRIGGER = "m11-bright"


def main() -> int:
    mode = sys.argv[1]
    if mode == "crash_at_start":
        print("fake engine: refusing to start", file=sys.stderr)
        return 3
    if mode == "slow_start":
        time.sleep(float(sys.argv[2]) if len(sys.argv) > 2 else 3.0)
    if mode == "chatty_start":  # a line nobody asked for, before the hello
        print('{"log": "engine ready"}', flush=True)
    if mode == "garbage_start":  # not JSON at all, before the hello
        print("Welcome to my engine! Type help.", flush=True)
    if mode == "stubborn":  # ignores SIGTERM: only SIGKILL ends it
        import signal

        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    if mode == "mutant":  # a semantic mutant of the reference (argv[2]) declaring argv[3] (JSON) as its hello
        from gostop_conformance.mutants import apply_for_process

        apply_for_process(sys.argv[2])
    engine = JsonEngine()
    triggered = False
    games = 0
    trigger_games = 0
    acts = 0
    for line in sys.stdin:
        message = json.loads(line)
        cmd = message.get("cmd")
        if mode == "stderr_flood":
            sys.stderr.write("x" * 200_000 + "\n")
        if cmd == "hello" and mode == "undeclared_options":  # declares rulesets, no option values
            reply, _ = handle(engine, message)
            reply["options"] = {}
            print(json.dumps(reply), flush=True)
            continue
        if cmd == "hello" and mode in ("declares", "mutant"):  # the declaration given as JSON replaces the reference's
            reply, _ = handle(engine, message)
            reply.pop("options", None)
            reply.update(json.loads(sys.argv[2 if mode == "declares" else 3]))
            print(json.dumps(reply), flush=True)
            continue
        if cmd == "hello" and mode == "deep_declaration":  # an invalid declaration as deep as a reply may nest
            reply, _ = handle(engine, message)
            reply["options"] = {"jjok_steal": json.loads("[" * 62 + "]" * 62)}
            print(json.dumps(reply), flush=True)
            continue
        if cmd == "hello" and mode == "liar":
            reply, stop = handle(engine, message)
            print(json.dumps(reply), flush=True)
            continue
        if cmd == "new_game":
            games += 1
            triggered = TRIGGER in message["deal"]["hands"][0]
            if mode == "crash_second_game" and games == 2:
                return 1
            if mode == "nondeterministic" and games % 2 == 0:  # every second game forgets the jjok steal
                message["ruleset"]["options"]["jjok_steal"] = 0
            if mode == "liar" and triggered:  # calls a well-formed deal bad
                print(json.dumps({"seq": message["seq"], "error": {"code": "bad_deal", "message": "I lied in hello"}}), flush=True)
                continue
            if mode == "nasty" and triggered:  # text no report may pass on raw: controls, markup, bad UTF-8
                sys.stderr.buffer.write(b"\x1b[2J\x1b[31mscreen cleared\x00 \xff\xfe <b>|x|</b>\n")
                sys.stderr.flush()
                nasty = "bad\x1b]0;title\x07\x00 <script>|cell|</script>\n second line"
                print(json.dumps({"seq": message["seq"], "error": {"code": "bad_deal", "message": nasty}}), flush=True)
                continue
            if mode == "non_ascii" and triggered:  # what a console in ASCII or Latin-1 cannot print
                print(json.dumps({"seq": message["seq"], "error": {"code": "bad_deal", "message": "실패 🂡 échec"}}), flush=True)
                continue
            if mode == "surrogate" and triggered:  # a lone surrogate: JSON to Python's parser, not to the harness's
                print(json.dumps({"seq": message["seq"], "error": {"code": "bad_deal", "message": "\udcff"}}), flush=True)
                continue
            if mode == "refuses" and triggered:  # a late declaration: this deal is not supported
                print(json.dumps({"seq": message["seq"], "error": {"code": "unsupported", "message": "no bright captures"}}), flush=True)
                continue
            if mode == "one_rule_wrong":  # this engine never steals junk for a jjok
                message["ruleset"]["options"]["jjok_steal"] = 0
            if mode == "crash_in_replay" and triggered:  # the trigger's second run (--check-determinism) dies
                trigger_games += 1
                if trigger_games == 2:
                    os._exit(139)
            if mode == "no_read" and games == 1:  # stops reading its stdin for good: the harness's writes must time out
                time.sleep(3600)
            if mode == "segfault_once" and triggered and not os.path.exists(sys.argv[2]):
                # dies reading the trigger's new_game (sent ahead), once: a restart must not hide it
                with open(sys.argv[2], "w") as marker:
                    marker.write("crashed")
                sys.stdout.flush()
                os._exit(139)
        if mode == "error_null" and cmd in ("legal", "score"):  # what Go and Java serializers print for no error
            reply, _ = handle(engine, message)
            print(json.dumps({**reply, "error": None}), flush=True)
            continue
        if cmd == "act":
            acts += 1
        if cmd == "act" and mode == "crash_every" and acts == int(sys.argv[2]):  # mid-reply, every Nth act of a process
            sys.stdout.write('{"seq": ' + str(message["seq"]) + ', "events": [{"kind": "cap')
            sys.stdout.flush()
            os._exit(139)
        if cmd == "score" and triggered and mode == "error_beside_result":  # a whole result, and an error that is no object
            reply, _ = handle(engine, message)
            print(json.dumps({**reply, "error": ["not", "an", "object"]}), flush=True)
            continue
        if cmd == "act" and triggered:
            if mode == "deep_error_detail":  # a rejection with an extra member: the reply nests 64 deep, as deep as read
                detail = json.loads("[" * 62 + "]" * 62)
                print(json.dumps({"seq": message["seq"], "error": {"code": "must_match", "message": "no", "detail": detail}}), flush=True)
                continue
            if mode == "deep_seq":  # a seq nested a thousand deep
                print('{"seq": ' + "[" * 1000 + "]" * 1000 + ', "events": [], "state": {}}', flush=True)
                continue
            if mode == "deep_value":  # a valid reply with an extra field nested a thousand deep
                reply, _ = handle(engine, message)
                text = json.dumps(reply)
                print(text[:-1] + ', "extra": ' + "[" * 1000 + "]" * 1000 + "}", flush=True)
                continue
            if mode == "setsid_helper":  # a helper in a session of its own (its pid in argv[2]) outlives nothing
                import subprocess

                child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"], start_new_session=True)
                with open(sys.argv[2], "w") as pid_file:
                    pid_file.write(str(child.pid))
            if mode == "crash_mid_reply":  # half a reply, then a segfault's exit status
                sys.stdout.write('{"seq": ' + str(message["seq"]) + ', "events": [{"kind": "cap')
                sys.stdout.flush()
                os._exit(139)
            if mode == "crash_mid_game":
                print("fake engine: segmentation fault (not really)", file=sys.stderr)
                sys.stderr.flush()
                return 1
            if mode == "orphan":  # dies, leaving a grandchild that holds its stdout open (its pid in argv[2])
                import subprocess

                child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"])
                with open(sys.argv[2], "w") as pid_file:
                    pid_file.write(str(child.pid))
                os._exit(1)
            if mode in ("hang", "stubborn"):
                time.sleep(3600)
            if mode == "half_line":  # half a reply, then silence
                sys.stdout.write('{"seq": ' + str(message["seq"]) + ', "events": [')
                sys.stdout.flush()
                time.sleep(3600)
            if mode == "closes_stdout":  # alive, but its replies can never come
                os.close(1)
                time.sleep(3600)
            if mode == "double_reply":  # the same reply twice: the second answers nothing
                reply, _ = handle(engine, message)
                print(json.dumps(reply), flush=True)
                print(json.dumps(reply), flush=True)
                continue
            if mode == "invalid_json":
                print("this is not JSON", flush=True)
                continue
            if mode == "wrong_seq":
                reply, _ = handle(engine, message)
                reply["seq"] = message["seq"] + 100
                print(json.dumps(reply), flush=True)
                continue
            if mode == "huge_line":
                print(json.dumps({"seq": message["seq"], "events": [], "state": {}, "pad": "x" * (10 << 20)}), flush=True)
                continue
            if mode == "bloat":  # a wrong state and a 2 MB event in every reply to act: a failure to remember, bounded
                reply, _ = handle(engine, message)
                reply["state"]["stock"] = reply["state"]["stock"][:-1]
                reply["events"].append({"kind": "capture", "player": 0, "note": "x" * (2 << 20)})
                print(json.dumps(reply), flush=True)
                continue
            if mode == "lose_card":  # the state forgets the bottom stock card
                reply, _ = handle(engine, message)
                reply["state"]["stock"] = reply["state"]["stock"][:-1]
                print(json.dumps(reply), flush=True)
                continue
            if mode == "schema_invalid":
                print(json.dumps({"seq": message["seq"], "events": "none"}), flush=True)
                continue
        reply, stop = handle(engine, message)
        if cmd == "act" and triggered and mode == "wrong_rejection" and "error" in reply:
            reply["error"]["code"] = "must_match"  # rejects, but for the wrong reason
        if cmd == "score" and triggered and mode == "wrong_score":
            reply["scores"][0]["base"] += 1
        print(json.dumps(reply), flush=True)
        if stop:
            break
    return 0


if __name__ == "__main__":
    sys.exit(main())
