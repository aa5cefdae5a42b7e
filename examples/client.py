#!/usr/bin/env python3
"""Drive droprules' rules from Python through `droprules serve`: JSON-RPC 2.0, one
message a line each way. Run it from the droprules folder:

    python3 examples/client.py [path/to/droprules]
"""
import itertools
import json
import subprocess
import sys

droprules = sys.argv[1] if len(sys.argv) > 1 else "droprules"
server = subprocess.Popen(
    [droprules, "serve", "rules/calendar/move-to-empty-day.scenario.json"],
    stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
ids = itertools.count(1)


def call(method, **params):
    """Sends one request and returns its result, or raises with the error's message."""
    request = {"jsonrpc": "2.0", "id": next(ids), "method": method, "params": params}
    server.stdin.write(json.dumps(request) + "\n")
    server.stdin.flush()
    response = json.loads(server.stdout.readline())
    if "error" in response:
        raise RuntimeError(response["error"]["message"])
    return response["result"]


call("beginDrag", items=["standup"])
for step in [{"at": [50, 50]}, {"over": "day-13"}]:
    answer = call("move", **step)
    print("move", json.dumps(step), "->", answer["proposal"], "over", answer["target"])
print("option ->", call("modifiers", modifiers=["option"])["proposal"])
print("drop ->", call("drop")["outcome"])
print("board", call("board")["targets"])
try:
    call("drop")
except RuntimeError as error:
    print("error:", error)
server.stdin.close()
sys.exit(server.wait())
