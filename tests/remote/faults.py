#!/usr/bin/env python3
"""Remote caches that fail: every build passes, compiles locally what the
remote could not give, writes the files a build without a remote writes,
and counts what happened (accyc cache stats).

The faulty servers are real HTTP servers on loopback (a small Bazel-layout
store in this process whose answers a case can spoil); the read-only and
refused-credentials cases use the nginx fixture, the Redis cases the
redis-server fixture, whose values they spoil (servers.py).

Usage: faults.py ACCYC INPUT.accy WORKDIR SERVERS_DIR
"""
import hashlib
import http.server
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import threading
import time

ACCYC, INPUT, WORK, SERVERS = sys.argv[1:5]
NGINX = json.load(open(os.path.join(SERVERS, "nginx", "urls.json")))
REDIS = json.load(open(os.path.join(SERVERS, "redis", "urls.json")))
# Every secret a message could repeat.
TOKEN = "token-%d" % os.getpid()
SECRETS = [NGINX["password"], NGINX["wrong_password"].split(":")[2].split("@")[0],
           TOKEN, REDIS["password"]]
FAILURES = []


def check(condition, message):
    if not condition:
        FAILURES.append(message)
        print("FAILED:", message)


class Store(http.server.ThreadingHTTPServer):
    """Bazel's layout in memory; `spoil(path, body)` changes what a GET
    answers, `fail` answers every request with that status, `stop_after`
    closes the server after so many requests."""
    daemon_threads = True

    def __init__(self):
        super().__init__(("127.0.0.1", 0), Handler)
        self.blobs, self.fail, self.stop_after, self.spoil = {}, None, None, None
        self.token = None  # writes need "Authorization: Bearer TOKEN"
        self.requests = 0
        threading.Thread(target=self.serve_forever, daemon=True).start()

    @property
    def url(self):
        return "http://127.0.0.1:%d/cache" % self.server_address[1]


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def answer(self, status, body=b""):
        self.send_response(status)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Connection", "close")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)
        self.close_connection = True

    def handle_one(self):
        store = self.server
        store.requests += 1
        if store.stop_after is not None and store.requests > store.stop_after:
            # Stopped: this connection is dropped, later ones are refused.
            threading.Thread(target=lambda: (store.shutdown(),
                                             store.server_close())).start()
            self.close_connection = True
            return
        if store.fail:
            return self.answer(store.fail, b"internal error")
        if self.command == "PUT":
            if store.token and self.headers.get("Authorization") != \
                    "Bearer " + store.token:
                return self.answer(401)
            length = int(self.headers.get("Content-Length", 0))
            store.blobs[self.path] = self.rfile.read(length)
            return self.answer(201)
        body = store.blobs.get(self.path)
        if body is not None and store.spoil:
            body = store.spoil(self.path, body)
        if body is None:
            return self.answer(404)
        self.answer(200, body)

    do_GET = do_HEAD = do_PUT = handle_one


def stats(store_dir):
    """The remote counters `accyc cache stats` shows."""
    out = subprocess.run([ACCYC, "cache", "stats", "--cache-dir", store_dir],
                         capture_output=True, text=True).stdout
    for line in out.splitlines():
        fields = line.split()
        if fields and fields[0] == "remote" and fields[1].isdigit():
            names = ["hits", "misses", "writes", "errors", "timeouts",
                     "corrupt"]
            return dict(zip(names, map(int, fields[1:7])))
    return dict.fromkeys(["hits", "misses", "writes", "errors", "timeouts",
                          "corrupt"], 0)


def outputs(directory):
    return {n: open(os.path.join(directory, n), "rb").read()
            for n in sorted(os.listdir(directory))
            if not n.endswith((".srcmap.json", ".stamps.json"))}


def build(name, remote, store=None, env=None):
    """A build into a fresh directory, with a fresh local store unless
    `store` names one."""
    out = os.path.join(WORK, name, "out")
    shutil.rmtree(os.path.join(WORK, name), ignore_errors=True)
    store = store or os.path.join(WORK, name, "store")
    start = time.monotonic()
    result = subprocess.run([ACCYC, "build", INPUT, "--target", "host,sm_90",
                             "-o", out, "--cache-dir", store,
                             "--remote-cache", remote, "--timing"],
                            capture_output=True, text=True,
                            env=dict(os.environ, **(env or {})))
    seconds = time.monotonic() - start
    check(result.returncode == 0, "%s: the build fails:\n%s" % (name,
                                                                result.stderr))
    check(not any(s in result.stdout + result.stderr for s in SECRETS),
          "%s: a credential is printed" % name)
    if result.returncode == 0:
        check(outputs(out) == REFERENCE,
              "%s: the files differ from a build without a remote" % name)
    result.counts, result.seconds = stats(store), seconds
    compiled = [l for l in result.stdout.splitlines()
                if l.startswith(("memory", "kernel", "target"))]
    result.compiled = sum(int(m) for l in compiled
                          for m in re.findall(r"(\d+) compiled", l))
    return result


def expect(name, result, **counts):
    for key, value in counts.items():
        check(result.counts[key] == value, "%s: %s is %d, expected %d (%s)" % (
            name, key, result.counts[key], value, result.counts))


shutil.rmtree(WORK, ignore_errors=True)
reference_dir = os.path.join(WORK, "reference")
subprocess.run([ACCYC, "build", INPUT, "--target", "host,sm_90", "-o",
                reference_dir, "--no-cache"], check=True)
REFERENCE = outputs(reference_dir)
KERNELS = 2 * 3  # kernels of INPUT times the stored stages

# A working server, first: the later cases spoil what it holds.
good = Store()
cold = build("cold", good.url)
expect("cold", cold, writes=KERNELS, misses=KERNELS, errors=0)
warm = build("warm", good.url)
expect("warm", warm, hits=KERNELS, corrupt=0)
check(warm.compiled == 0, "warm: %d kernels compiled" % warm.compiled)
# What the remote gave is kept locally: without it, every kernel is a hit.
local = build("warm-local", "", store=os.path.join(WORK, "warm", "store"))
check(local.compiled == 0 and local.stdout.count(" 2 stored") == 3,
      "the remote's entries were not kept locally:\n" + local.stdout)

# A bearer token from the environment.
guarded = Store()
guarded.token = TOKEN
with_token = guarded.url + "|bearer-token-env=ACCY_TEST_TOKEN"
result = build("token", with_token, env={"ACCY_TEST_TOKEN": TOKEN})
expect("token", result, writes=KERNELS, errors=0)
result = build("no-token", guarded.url + "/elsewhere|bearer-token-env=UNSET")
expect("no-token", result, writes=0, errors=1)


def protobuf_fields(data):
    """A protobuf message's (field, value) pairs, by the wire format."""
    def varint(at):
        value = shift = 0
        while True:
            byte = data[at]
            value |= (byte & 0x7F) << shift
            at, shift = at + 1, shift + 7
            if not byte & 0x80:
                return value, at
    at, fields = 0, []
    while at < len(data):
        tag, at = varint(at)
        if tag & 7 == 0:
            value, at = varint(at)
        else:
            check(tag & 7 == 2, "an ActionResult field of wire type %d"
                  % (tag & 7))
            length, at = varint(at)
            value, at = data[at:at + length], at + length
        fields.append((tag >> 3, value))
    return fields


# Every action entry is a build.bazel.remote.execution.v2.ActionResult
# whose one output file (field 2: path 1, digest 2 = {hash 1, size 2})
# names content the server holds, as bazel-remote's validation wants.
for path, blob in good.blobs.items():
    if "/ac/" not in path:
        continue
    [(field, output_file)] = protobuf_fields(blob)
    output = dict(protobuf_fields(output_file))
    digest = dict(protobuf_fields(output[2]))
    content = good.blobs.get("/cache/cas/" + digest[1].decode())
    check(field == 2 and output[1] == b"accy-kernel-store-entry" and
          content is not None and len(content) == digest[2] and
          hashlib.sha256(content).hexdigest() == digest[1].decode(),
          "an action entry that is not an ActionResult naming its content")


def spoiled(name, spoil, hits=0, **counts):
    good.spoil = spoil
    result = build(name, good.url + "|read-only")
    good.spoil = None
    expect(name, result, hits=hits, **counts)
    check(result.compiled == KERNELS - hits, "%s: %d kernels compiled, "
          "expected %d" % (name, result.compiled, KERNELS - hits))


cas = lambda path: "/cas/" in path
spoiled("corrupt-blob", lambda p, b: b[:-1] + bytes([b[-1] ^ 1]) if cas(p)
        else b, corrupt=KERNELS)
spoiled("truncated-blob", lambda p, b: b[: len(b) // 2] if cas(p) else b,
        corrupt=KERNELS)
spoiled("missing-content", lambda p, b: None if cas(p) else b,
        corrupt=KERNELS)
spoiled("garbage-action", lambda p, b: b"\xff" * 40 if "/ac/" in p else b,
        corrupt=KERNELS)
# Every action entry names one kernel's content: content that checks
# against its digest but is another key's entry.
first_ac = next(p for p in good.blobs if "/ac/" in p)
spoiled("another-keys-entry", lambda p, b: good.blobs[first_ac]
        if "/ac/" in p else b, hits=1, corrupt=KERNELS - 1)

# 500s: the first request fails, the backend is off, nothing else is asked.
failing = Store()
failing.fail = 500
result = build("errors-500", failing.url)
expect("errors-500", result, errors=1, hits=0)
check(failing.requests == 1, "errors-500: %d requests after the first error"
      % failing.requests)

# The server stops half way through the build.
stopping = Store()
stopping.stop_after = 10
result = build("stopped", stopping.url)
expect("stopped", result, errors=1, hits=0)
check(result.counts["writes"] >= 1, "stopped: nothing written before the stop")

# Nothing listens: a refused connection, at once.
closed = socket.socket()
closed.bind(("127.0.0.1", 0))
closed_url = "http://127.0.0.1:%d/cache" % closed.getsockname()[1]
closed.close()
refused = build("refused", closed_url)
expect("refused", refused, errors=1)

# A server that accepts connections (the kernel's backlog does) and never
# answers: one timeout, then the backend is off; the build costs one
# timeout more than one that was refused at once.
silent = socket.socket()
silent.bind(("127.0.0.1", 0))
silent.listen(64)
TIMEOUT = 1.5
silent_url = "http://127.0.0.1:%d/cache|timeout=%d" % (
    silent.getsockname()[1], TIMEOUT * 1000)
result = build("never-answers", silent_url)
expect("never-answers", result, timeouts=1, errors=0, hits=0)
check(result.seconds < refused.seconds + 2 * TIMEOUT - 0.3,
      "never-answers: %.2f s against %.2f s refused: more than one timeout"
      % (result.seconds, refused.seconds))
check("off for the rest of this run" in result.stderr,
      "never-answers: no warning: " + result.stderr)

# nginx: a read-only configuration writes nothing, refused credentials are
# one error and a local compile.
def nginx_files():
    return sum(len(files) for _, _, files in os.walk(NGINX["data"]))


before = nginx_files()
result = build("read-only", NGINX["write"].replace(
    "/cache", "/cache/read-only-%d" % os.getpid()) + "|read-only")
expect("read-only", result, writes=0, errors=0, misses=KERNELS)
check(nginx_files() == before, "read-only: files were written to nginx")
result = build("wrong-password", NGINX["wrong_password"].replace(
    "/cache", "/cache/refused-%d" % os.getpid()))
expect("wrong-password", result, writes=0, errors=1)
check(nginx_files() == before, "wrong-password: files were written")
check("HTTP status 401" in result.stderr, "wrong-password: " + result.stderr)

# Redis: values that do not check are misses, counted; a refused password
# is one error.
def redis_eval(script):
    result = subprocess.run(REDIS["cli"] + ["EVAL", script, "0"],
                            capture_output=True, text=True)
    check(result.returncode == 0 and "ERR" not in result.stdout,
          "redis-cli EVAL: " + result.stdout + result.stderr)


def each_entry(body):
    """A Lua script running `body` for every entry key `k`."""
    return ("for _, k in ipairs(redis.call('KEYS', 'accy:v1:*')) do %s end"
            % body)


redis_eval("redis.call('FLUSHDB')")
result = build("redis-cold", REDIS["write"])
expect("redis-cold", result, writes=KERNELS, errors=0)
result = build("redis-warm", REDIS["unix"] + "|read-only")
expect("redis-warm", result, hits=KERNELS, corrupt=0)
# Every key holds the first one's entry: it checks only under its own key.
redis_eval("local keys = redis.call('KEYS', 'accy:v1:*') "
           "local first = redis.call('GET', keys[1]) " +
           each_entry("redis.call('SET', k, first)"))
result = build("redis-another-key", REDIS["write"] + "|read-only")
expect("redis-another-key", result, hits=1, corrupt=KERNELS - 1)
redis_eval(each_entry("local v = redis.call('GET', k) "
                      "redis.call('SET', k, string.sub(v, 1, #v - 9))"))
result = build("redis-truncated", REDIS["write"] + "|read-only")
expect("redis-truncated", result, hits=0, corrupt=KERNELS)
redis_eval(each_entry("redis.call('SET', k, 'garbage')"))
result = build("redis-garbage", REDIS["write"] + "|read-only")
expect("redis-garbage", result, hits=0, corrupt=KERNELS)
result = build("redis-wrong-password", REDIS["write"].replace(
    REDIS["password"], "wrong-" + REDIS["password"][::-1]))
expect("redis-wrong-password", result, errors=1, writes=0)

if FAILURES:
    sys.exit("%d checks failed" % len(FAILURES))
print("passed: remote cache faults")
