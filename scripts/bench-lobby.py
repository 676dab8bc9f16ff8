#!/usr/bin/env python3
# Usage (a cluster up: scripts/cluster.sh up): scripts/bench-lobby.py NODE1_URL NODE2_URL [N]
"""Lobby across nodes: how soon a seek made on node-1 is listed on node-2, and what an accept
costs on the seek's node vs on another (asked over NATS)."""
import sys, time, statistics, requests

n1, n2 = sys.argv[1], sys.argv[2]
N = int(sys.argv[3]) if len(sys.argv) > 3 else 100

def client(base, name):
    s = requests.Session()
    csrf = s.get(f"{base}/api/v1/account").json()["csrf"]
    s.headers["x-csrf-token"] = csrf
    r = s.post(f"{base}/api/v1/account/signup", json={"username": name, "password": "correct horse battery"})
    assert r.status_code == 201, r.text
    return s

suffix = str(int(time.time()) % 100000)
ann = client(n1, "ann" + suffix)
bob = client(n2, "bob" + suffix)
cyd = client(n1, "cyd" + suffix)
body = {"time_control": "300+3", "rated": False, "rules": "seed"}

def pct(xs, p):
    xs = sorted(xs); return xs[min(len(xs) - 1, int(p / 100 * len(xs)))]

seen, local, remote = [], [], []
for i in range(N):
    r = ann.post(f"{n1}/api/v1/seeks", json=body); assert r.status_code == 201, r.text
    sid = r.json()["id"]; t0 = time.perf_counter()
    while sid not in [s["id"] for s in bob.get(f"{n2}/api/v1/seeks").json()["seeks"]]:
        pass
    seen.append(time.perf_counter() - t0)
    who, base, out = (bob, n2, remote) if i % 2 == 0 else (cyd, n1, local)
    t0 = time.perf_counter()
    r = who.post(f"{base}/api/v1/seeks/{sid}/accept", json=None)
    out.append(time.perf_counter() - t0)
    assert r.status_code == 201, r.text

ms = lambda x: f"{x * 1000:.2f} ms"
for name, xs in [("seek listed on node-2 (polled)", seen), ("accept on the seek's node", local), ("accept on another node", remote)]:
    print(f"{name}: n={len(xs)} p50 {ms(statistics.median(xs))} p99 {ms(pct(xs, 99))} max {ms(max(xs))}")
