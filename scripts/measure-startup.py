#!/usr/bin/env python3
"""Exec to the first daemon.ping answered with N plugin files (SPEC: 100 files, <= 100 ms; README, "Performance").
   python3 scripts/measure-startup.py [BINARY] [--plugins N] [--runs R]
Writes N copies of plugins/dt-slide.lua (renamed, an animator and a delegate each) into a temporary folder, then R
times: starts BINARY (default .build/release/segued) on a fresh socket with that folder, and times from just before
the exec to the first `pong` read back, connecting and pinging as fast as the socket allows. Also checks that the
answered daemon had loaded every plugin (plugins.list) and prints each run and the range (min-max, median)."""
import json, os, socket, subprocess, sys, tempfile, time

args = sys.argv[1:]
binary = ".build/release/segued"
count, runs = 100, 5
while args:
    a = args.pop(0)
    if a == "--plugins": count = int(args.pop(0))
    elif a == "--runs": runs = int(args.pop(0))
    else: binary = a
folder = tempfile.mkdtemp(prefix="sgstart-")
source = open("plugins/dt-slide.lua").read()
plugins = folder + "/plugins"
os.mkdir(plugins)
for i in range(count):
    text = source.replace('"dt-slide"', '"dt-slide-%d"' % i).replace('"dt-slide-delegate"', '"dt-slide-delegate-%d"' % i)
    open("%s/p%d.lua" % (plugins, i), "w").write(text)

def ask(sock, method, params=None):
    line = {"jsonrpc": "2.0", "id": 1, "method": method}
    if params is not None: line["params"] = params
    sock.sendall((json.dumps(line) + "\n").encode())
    buf = b""
    while not buf.endswith(b"\n"):
        chunk = sock.recv(1 << 20)
        if not chunk: raise OSError("closed")
        buf += chunk
    return json.loads(buf.split(b"\n")[0])

times = []
for run in range(runs):
    path = "%s/s%d.sock" % (folder, run)
    start = time.perf_counter()
    p = subprocess.Popen([binary, "--socket", path, "--plugins", plugins, "--log-level", "error"],
                         stderr=subprocess.DEVNULL)
    try:
        while True:
            try:
                s = socket.socket(socket.AF_UNIX)
                s.connect(path)
                reply = ask(s, "daemon.ping")
                if reply.get("result") is not None:
                    break
            except OSError:
                s.close()
                if time.perf_counter() - start > 30: sys.exit("no pong within 30 s")
                time.sleep(0.0005)
        elapsed = (time.perf_counter() - start) * 1000
        listed = ask(s, "plugins.list").get("result", [])
        loaded = sum(1 for entry in listed if str(entry.get("name", "")).startswith("dt-slide-")
                     and entry.get("status") == "loaded")
        if loaded < 2 * count:
            sys.exit("run %d: only %d of %d plugins loaded at the first pong" % (run + 1, loaded, 2 * count))
        s.close()
    finally:
        p.terminate()
        p.wait()
    times.append(elapsed)
    print("run %d: %.1f ms" % (run + 1, elapsed))
ordered = sorted(times)
print("exec to first ping with %d plugin files: %.1f-%.1f ms, median %.1f ms over %d runs"
      % (count, ordered[0], ordered[-1], ordered[len(ordered) // 2], runs))
