#!/usr/bin/env python3
"""Starts and stops the cache servers the remote-cache tests and the
benchmark use, on free loopback ports, each with its own configuration and
data under DIR (docs/cache.md shows the same set-ups):

  nginx  WebDAV under /cache/, writes behind basic auth
         (limit_except GET HEAD), on http and on https with a certificate
         of a CA made here (DIR/nginx/ca.pem; DIR/nginx/other-ca.pem is a
         CA that did not sign it)
  redis  redis-server with a password, on TCP and a Unix socket, no
         persistence, allkeys-lru

  servers.py start nginx|redis DIR    writes DIR/<server>/urls.json
  servers.py stop nginx|redis DIR
"""
import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import time


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_port(port, seconds=10):
    deadline = time.time() + seconds
    while time.time() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.05)
    sys.exit("servers.py: nothing listens on port %d" % port)


def run(*command, **kwargs):
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, **kwargs)


def make_certificates(d):
    """A CA, a server certificate it signs for 127.0.0.1, and another CA."""
    for ca in ("ca", "other-ca"):
        run("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes",
            "-days", "2", "-subj", "/CN=accy test " + ca,
            "-keyout", os.path.join(d, ca + ".key"),
            "-out", os.path.join(d, ca + ".pem"))
    with open(os.path.join(d, "san.ext"), "w") as f:
        f.write("subjectAltName=IP:127.0.0.1,DNS:localhost\n")
    run("openssl", "req", "-newkey", "rsa:2048", "-nodes", "-subj",
        "/CN=127.0.0.1", "-keyout", os.path.join(d, "server.key"),
        "-out", os.path.join(d, "server.csr"))
    run("openssl", "x509", "-req", "-in", os.path.join(d, "server.csr"),
        "-CA", os.path.join(d, "ca.pem"), "-CAkey", os.path.join(d, "ca.key"),
        "-CAcreateserial", "-days", "2", "-extfile", os.path.join(d, "san.ext"),
        "-out", os.path.join(d, "server.pem"))


NGINX_CONF = """
{user}
pid {d}/nginx.pid;
error_log {d}/error.log;
events {{}}
http {{
  access_log {d}/access.log;
  client_body_temp_path {d}/tmp/body;
  proxy_temp_path {d}/tmp/proxy;
  fastcgi_temp_path {d}/tmp/fastcgi;
  uwsgi_temp_path {d}/tmp/uwsgi;
  scgi_temp_path {d}/tmp/scgi;
  client_max_body_size 0;
  server {{
    listen 127.0.0.1:{port};
    listen 127.0.0.1:{tls_port} ssl;
    ssl_certificate {d}/server.pem;
    ssl_certificate_key {d}/server.key;
    location /cache/ {{
      root {d}/data;
      dav_methods PUT DELETE MKCOL;
      create_full_put_path on;
      limit_except GET HEAD {{
        auth_basic "accy cache";
        auth_basic_user_file {d}/htpasswd;
      }}
    }}
  }}
}}
"""


def start_nginx(d):
    os.makedirs(os.path.join(d, "tmp"), exist_ok=True)
    os.makedirs(os.path.join(d, "data", "cache"), exist_ok=True)
    make_certificates(d)
    password = "pw-" + secrets.token_hex(8)
    hashed = subprocess.run(["openssl", "passwd", "-apr1", password],
                            check=True, capture_output=True,
                            text=True).stdout.strip()
    with open(os.path.join(d, "htpasswd"), "w") as f:
        f.write("ci:%s\n" % hashed)
    port, tls_port = free_port(), free_port()
    with open(os.path.join(d, "nginx.conf"), "w") as f:
        # As root nginx's workers would run as nobody, who cannot write DIR.
        user = "user root root;" if os.geteuid() == 0 else ""
        f.write(NGINX_CONF.format(d=d, port=port, tls_port=tls_port,
                                  user=user))
    run("nginx", "-p", d, "-c", os.path.join(d, "nginx.conf"),
        "-e", os.path.join(d, "error.log"))
    wait_for_port(port)
    wait_for_port(tls_port)
    return {
        "read": "http://127.0.0.1:%d/cache" % port,
        "write": "http://ci:%s@127.0.0.1:%d/cache" % (password, port),
        "wrong_password": "http://ci:wrong-%s@127.0.0.1:%d/cache" % (
            secrets.token_hex(4), port),
        "https_write": "https://ci:%s@127.0.0.1:%d/cache" % (password,
                                                             tls_port),
        "password": password,
        "ca": os.path.join(d, "ca.pem"),
        "other_ca": os.path.join(d, "other-ca.pem"),
        "data": os.path.join(d, "data", "cache"),
        "pidfile": os.path.join(d, "nginx.pid"),
    }


def start_redis(d):
    port = free_port()
    password = "pw-" + secrets.token_hex(8)
    sock = os.path.join(d, "redis.sock")
    run("redis-server", "--bind", "127.0.0.1", "--port", str(port),
        "--unixsocket", sock, "--unixsocketperm", "700",
        "--requirepass", password, "--save", "", "--appendonly", "no",
        "--maxmemory", "256mb", "--maxmemory-policy", "allkeys-lru",
        "--daemonize", "yes", "--dir", d,
        "--pidfile", os.path.join(d, "redis.pid"),
        "--logfile", os.path.join(d, "redis.log"))
    wait_for_port(port)
    return {
        "write": "redis://:%s@127.0.0.1:%d" % (password, port),
        "unix": "redis+unix://:%s@%s?db=0" % (password, sock),
        "password": password,
        # What redis-cli takes (its -u reads ":password@" as an empty user).
        "cli": ["redis-cli", "-h", "127.0.0.1", "-p", str(port), "-a",
                password, "--no-auth-warning"],
        "pidfile": os.path.join(d, "redis.pid"),
    }


def stop(d):
    try:
        with open(os.path.join(d, "urls.json")) as f:
            pidfile = json.load(f)["pidfile"]
        with open(pidfile) as f:
            pid = int(f.read().split()[0])
    except (OSError, ValueError, KeyError):
        return
    try:
        os.kill(pid, signal.SIGTERM)
    except ProcessLookupError:
        return
    deadline = time.time() + 10
    while time.time() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.05)


def main():
    if len(sys.argv) != 4 or sys.argv[1] not in ("start", "stop") or \
            sys.argv[2] not in ("nginx", "redis"):
        sys.exit("usage: servers.py start|stop nginx|redis DIR")
    action, server, root = sys.argv[1:]
    d = os.path.abspath(os.path.join(root, server))
    if action == "stop":
        stop(d)
        return
    stop(d)  # one a killed test run left
    if os.path.isdir(d):
        subprocess.run(["rm", "-rf", d], check=True)
    os.makedirs(d)
    urls = start_nginx(d) if server == "nginx" else start_redis(d)
    with open(os.path.join(d, "urls.json"), "w") as f:
        json.dump(urls, f, indent=1)


if __name__ == "__main__":
    main()
