#!/usr/bin/env python3
"""SIGTERM-to-exit with many running transitions (README, "Limits"): python3 scripts/measure-shutdown.py BINARY SCENES CONTAINERS.
Builds SCENES manual scenes of CONTAINERS custom containers over the socket, subscribes one connection to every
scene's transition events, starts a dt-slide select in each container, sends SIGTERM and times it to the exit."""
import json, os, socket, subprocess, sys, time, tempfile, threading
binary, scenes, per = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
d = tempfile.mkdtemp(prefix="sgsh-")
sock = d + "/s.sock"
conf = d + "/segued.toml"
open(conf, "w").write("[limits]\nmax_scenes = 1024\nmax_views_per_scene = 100000\n")
p = subprocess.Popen([binary, "--config", conf, "--socket", sock, "--plugins", os.getcwd() + "/plugins"], stderr=open(d + "/err", "w"))
try:
    for _ in range(400):
        if os.path.exists(sock): break
        time.sleep(0.025)
    time.sleep(0.2)
    def conn():
        s = socket.socket(socket.AF_UNIX); s.connect(sock); return s
    # The subscriber: one connection subscribed to every scene's transition events, read all the time.
    sub = conn()
    state = {"completed": 0, "forced": 0, "closed": False}
    def read_sub():
        buf = b""
        while True:
            ch = sub.recv(1 << 20)
            if not ch: break
            buf += ch
            *lines, buf = buf.split(b"\n")
            for line in lines:
                if b'"transition.completed"' in line:
                    state["completed"] += 1
                    if b'"forced":true' in line: state["forced"] += 1
        state["closed"] = True
    c = conn()
    lines = []
    def req(m, params):
        lines.append(json.dumps({"jsonrpc": "2.0", "id": len(lines) + 1, "method": m, "params": params}))
    for s in range(scenes):
        sid = "s%d" % s
        req("scene.create", {"id": sid, "size": {"w": 320, "h": 480}, "clock": "manual"})
        for i in range(per):
            req("vc.create", {"scene": sid, "id": "a%d" % i}); req("vc.create", {"scene": sid, "id": "b%d" % i})
            req("container.create", {"scene": sid, "id": "c%d" % i, "kind": "custom", "children": ["a%d" % i, "b%d" % i]})
        req("container.create", {"scene": sid, "id": "root", "kind": "custom", "children": ["c%d" % i for i in range(per)]})
        req("scene.set_root", {"scene": sid, "vc": "root"})
    n_setup = len(lines)
    subs = "".join(json.dumps({"jsonrpc":"2.0","id":i+1,"method":"events.subscribe","params":{"scene":"s%d"%i,"types":["transition"]}}) + "\n" for i in range(scenes))
    starts = []
    for s in range(scenes):
        for i in range(per):
            starts.append(json.dumps({"jsonrpc": "2.0", "id": n_setup + len(starts) + 1, "method": "container.select",
                                      "params": {"scene": "s%d" % s, "container": "c%d" % i, "index": 1, "animator": "dt-slide"}}))
    def run(batch):
        total = len(batch)
        t = threading.Thread(target=lambda: c.sendall(("\n".join(batch) + "\n").encode())); t.start()
        buf = b""; got = 0; errors = []
        while got < total:
            ch = c.recv(1 << 20)
            if not ch: break
            buf += ch
            *ls, buf = buf.split(b"\n")
            for line in ls:
                if b'"id"' in line and (b'"result"' in line or b'"error"' in line):
                    got += 1
                    if b'"error"' in line and len(errors) < 3: errors.append(line[:300])
        t.join()
        return got, errors
    print("setup", run(lines)[0], file=sys.stderr)
    sub.sendall(subs.encode())
    # wait for the subscriptions' answers on the subscriber, then read events in the background
    buf = b""
    while buf.count(b"\n") < scenes: buf += sub.recv(1 << 16)
    threading.Thread(target=read_sub, daemon=True).start()
    got, errors = run(starts)
    print("started", got, "errors", errors, file=sys.stderr)
    time.sleep(0.3)
    t0 = time.monotonic()
    p.send_signal(15)
    p.wait()
    t1 = time.monotonic()
    for _ in range(500):
        if state["closed"]: break
        time.sleep(0.01)
    print("exit %d; SIGTERM to exit %.3f s; transition.completed received %d (forced %d)" % (p.returncode, t1 - t0, state["completed"], state["forced"]))
finally:
    if p.poll() is None: p.kill()
