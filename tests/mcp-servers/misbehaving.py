#!/usr/bin/env python3
"""A small MCP server (stdio, newline-delimited JSON-RPC) that misbehaves on purpose.

Usage: misbehaving.py MODE

  ok            behaves: tools ping, fail (isError), rpc_error (JSON-RPC error), echo_env
  crash         as ok, plus a tool `crash` that exits the process in the middle of the call
  slow-start    behaves, but waits SLOW_START_SECS (0.5) before answering `initialize`, as a
                server does while npx fetches it or it warms up (for the parallel-connect bench)
  hang          never answers `initialize`
  hang-call     connects, then never answers a tool call
  garbage       prints non-JSON lines on stdout around every answer, otherwise behaves
  garbage-only  prints only non-JSON lines, never a valid answer
  changing      starts with tool `alpha`; calling `add_tool` adds `beta` and sends
                notifications/tools/list_changed
"""

import json
import os
import sys
import time

MODE = sys.argv[1] if len(sys.argv) > 1 else "ok"
TOOLS = {
    "ping": "Answers pong.",
    "fail": "Always fails with isError.",
    "rpc_error": "Always answers with a JSON-RPC error.",
    "echo_env": "Returns the value of the environment variable named `name`.",
}
if MODE == "crash":
    TOOLS["crash"] = "Exits the server process mid-call."
if MODE == "changing":
    TOOLS = {"alpha": "The first tool.", "add_tool": "Adds the tool beta."}


def send(msg):
    if MODE == "garbage":
        sys.stdout.write("garbage before {not json\n")
    sys.stdout.write(json.dumps(msg) + "\n")
    if MODE == "garbage":
        sys.stdout.write("\x00\x01 more garbage ]]\n")
    sys.stdout.flush()


def result(mid, res):
    send({"jsonrpc": "2.0", "id": mid, "result": res})


def text(t, is_error=False):
    out = {"content": [{"type": "text", "text": t}]}
    if is_error:
        out["isError"] = True
    return out


def tool_list():
    return [
        {
            "name": n,
            "description": d,
            "inputSchema": {"type": "object", "properties": {"name": {"type": "string"}}},
        }
        for n, d in TOOLS.items()
    ]


def call(mid, params):
    name = params.get("name")
    args = params.get("arguments") or {}
    if name not in TOOLS:
        send({"jsonrpc": "2.0", "id": mid, "error": {"code": -32602, "message": f"unknown tool {name}"}})
    elif name in ("ping", "alpha", "beta"):
        result(mid, text("pong" if name == "ping" else name))
    elif name == "fail":
        result(mid, text("the tool failed on purpose", is_error=True))
    elif name == "rpc_error":
        send({"jsonrpc": "2.0", "id": mid, "error": {"code": -32000, "message": "rpc failure on purpose"}})
    elif name == "echo_env":
        result(mid, text(os.environ.get(args.get("name", ""), "<unset>")))
    elif name == "crash":
        sys.stderr.write("about to crash on purpose\n")
        sys.stderr.flush()
        os._exit(3)
    elif name == "add_tool":
        TOOLS["beta"] = "The tool added later."
        result(mid, text("added beta"))
        send({"jsonrpc": "2.0", "method": "notifications/tools/list_changed"})


def main():
    sys.stderr.write(f"misbehaving server starting in mode {MODE}\n")
    sys.stderr.flush()
    if MODE == "garbage-only":
        while True:
            sys.stdout.write("this is not JSON-RPC\n")
            sys.stdout.flush()
            time.sleep(0.2)
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        try:
            msg = json.loads(line)
        except ValueError:
            continue
        method, mid = msg.get("method"), msg.get("id")
        if mid is None:
            continue  # a notification
        if method == "initialize":
            if MODE == "hang":
                continue
            if MODE == "slow-start":
                time.sleep(float(os.environ.get("SLOW_START_SECS", "0.5")))
            version = (msg.get("params") or {}).get("protocolVersion", "2025-06-18")
            result(mid, {
                "protocolVersion": version,
                "capabilities": {"tools": {"listChanged": True}},
                "serverInfo": {"name": f"misbehaving-{MODE}", "version": "1.0.0"},
            })
        elif method == "ping":
            result(mid, {})
        elif method == "tools/list":
            result(mid, {"tools": tool_list()})
        elif method == "tools/call":
            if MODE == "hang-call":
                continue
            call(mid, msg.get("params") or {})
        else:
            send({"jsonrpc": "2.0", "id": mid, "error": {"code": -32601, "message": f"method not found: {method}"}})


if __name__ == "__main__":
    main()
