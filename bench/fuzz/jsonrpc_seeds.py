#!/usr/bin/env python3
"""Writes seed inputs for the JSON-RPC fuzzer (fuzz/FuzzJsonRpc.cpp) to DIR:
framed LSP sessions as a client sends them, built around the given .accy
files. Byte 0 of each seed is the fuzzer's read chunk size (0: all at once).

usage: jsonrpc_seeds.py DIR FILE.accy...
"""
import json
import os
import sys


def frame(message):
    body = json.dumps(message).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def session(text, uri):
    msgs = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize",
         "params": {"processId": 1, "rootUri": "file:///w", "capabilities": {}}},
        {"jsonrpc": "2.0", "method": "initialized", "params": {}},
        {"jsonrpc": "2.0", "method": "textDocument/didOpen",
         "params": {"textDocument": {"uri": uri, "languageId": "accy",
                                     "version": 1, "text": text}}},
        {"jsonrpc": "2.0", "id": 2, "method": "textDocument/hover",
         "params": {"textDocument": {"uri": uri},
                    "position": {"line": 1, "character": 4}}},
        {"jsonrpc": "2.0", "method": "$/cancelRequest", "params": {"id": 2}},
        {"jsonrpc": "2.0", "id": "accy-0", "result": None},
        {"jsonrpc": "2.0", "id": 3, "method": "accy/drop"},
        {"jsonrpc": "2.0", "id": 4, "method": "accy/twice", "params": [1, 2]},
        {"jsonrpc": "2.0", "id": 5, "method": "unknown/method"},
        {"jsonrpc": "2.0", "id": 6, "method": "shutdown"},
        {"jsonrpc": "2.0", "method": "exit"},
    ]
    return b"".join(frame(m) for m in msgs)


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    seeds = []
    for i, path in enumerate(sys.argv[2:]):
        with open(path, encoding="utf-8") as f:
            text = f.read()
        seeds.append(session(text, "file:///w/%d.accy" % i))
    seeds.append(frame({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                        "params": {"processId": "not a number"}}))
    seeds.append(b"Content-Length: 5\r\n\r\n{}{}{Content-Length: 2\r\n\r\n{}")
    seeds.append(b"Content-Length: 99999999999\r\n\r\n{}")
    seeds.append(b"Content-Type: x\r\nContent-Length: 2\r\n\r\n[]")
    seeds.append(frame({"jsonrpc": "2.0", "id": [1], "method": "shutdown"}))
    seeds.append(frame({"jsonrpc": "2.0", "id": "accy-0",
                        "error": {"code": -32601, "message": "no"}}))
    for i, seed in enumerate(seeds):
        for chunk in (0, 1, 7):
            with open(os.path.join(out, "seed-%02d-%d" % (i, chunk)), "wb") as f:
                f.write(bytes([chunk]) + seed)


if __name__ == "__main__":
    main()
