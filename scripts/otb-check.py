#!/usr/bin/env python3
# Usage: BBP=/path/to/bbpPairings.exe [ROOKERY=target/release/rookery] \
#            scripts/otb-check.py [PLAYERS] [ROUNDS] [SEED]
"""An over-the-board Swiss run end to end through the site's API, as an arbiter runs one, and
its exported TRF checked by two other readers (issue 53's proof; never in CI: bbpPairings is
fetched and built by hand, as for scripts/bbp-crosscheck.sh).

A real `rookery serve` on a fresh SQLite file in a temporary directory; the arbiter imports
PLAYERS (default 40) guests with FIDE ratings and birth years, checks in all but two (they
arrive for round 2), and runs ROUNDS (default 5) rounds: each paired and published, each
board's result entered at the desk (random, seeded by SEED: wins, draws, losses and now and
then a forfeit), one result corrected with a reason. Then:

- bbpPairings' checker (`--dutch FILE -c`) re-pairs every round of the exported TRF: it must
  find no discrepancy;
- `rookery standings FILE --json --fide-k auto` must give every player the site's rank,
  points, tie-breaks and FIDE rating change.

It prints what each step took (the server's answer time, as the arbiter waits for it) and
exits non-zero on the first disagreement."""
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import time

import requests

PLAYERS = int(sys.argv[1]) if len(sys.argv) > 1 else 40
ROUNDS = int(sys.argv[2]) if len(sys.argv) > 2 else 5
SEED = int(sys.argv[3]) if len(sys.argv) > 3 else 1
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BBP = os.environ.get("BBP")
ROOKERY = os.environ.get("ROOKERY") or next(
    (p for p in (f"{ROOT}/target/release/rookery", f"{ROOT}/target/debug/rookery") if os.access(p, os.X_OK)),
    None,
)
if not BBP or not ROOKERY:
    sys.exit("otb-check: set BBP to a built bbpPairings.exe (and ROOKERY, or build target/release/rookery)")


def fail(what):
    print(f"otb-check: {what}", file=sys.stderr)
    sys.exit(1)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


work = tempfile.mkdtemp(prefix="otb-check-")
port = free_port()
base = f"http://127.0.0.1:{port}"
server = subprocess.Popen(
    [ROOKERY, "serve", "--addr", f"127.0.0.1:{port}", "--data-dir", work, "--log-level", "warn"],
    stdout=subprocess.DEVNULL,
)
try:
    for _ in range(300):
        try:
            requests.get(f"{base}/health", timeout=1)
            break
        except requests.ConnectionError:
            time.sleep(0.1)
    desk = requests.Session()
    desk.headers["x-csrf-token"] = desk.get(f"{base}/api/v1/account").json()["csrf"]
    r = desk.post(f"{base}/api/v1/account/signup", json={"username": "arbiter", "password": "correct horse battery"})
    assert r.status_code == 201, r.text

    def call(method, path, body=None, want=200):
        started = time.perf_counter()
        r = desk.request(method, f"{base}/api/v1{path}", json=body)
        took = time.perf_counter() - started
        if r.status_code != want:
            fail(f"{method} {path} {body} -> {r.status_code} {r.text[:500]}")
        return (r.json() if r.headers.get("content-type", "").startswith("application/json") else r.text), took

    rng = random.Random(SEED)
    t, _ = call("POST", "/tournaments", {"name": f"Hall check {SEED}", "format": "swiss", "rounds": ROUNDS,
                                          "time_control": "5400+30", "over_the_board": True}, want=201)
    tid = t["id"]
    names = [f"Player {i:03}" for i in range(1, PLAYERS + 1)]
    rows = [f'"{n}",{2450 - 1200 * i // PLAYERS + rng.randrange(-40, 40)},{8600000 + i},CHN,{rng.randrange(1960, 2016)}'
            for i, n in enumerate(names)]
    listing = "Name,Rating,FIDE ID,Fed,Birth year\n" + "\n".join(rows) + "\n"
    _, took = call("POST", f"/tournaments/{tid}/roster", {"text": listing})
    print(f"import of {PLAYERS} players: {took * 1000:.0f} ms")
    late = names[-2:]
    _, took = call("POST", f"/tournaments/{tid}/arbiter", {"action": "check_in", "players": names[:-2], "present": True})
    print(f"check-in of {PLAYERS - 2}: {took * 1000:.0f} ms")
    corrected = False
    for rnd in range(1, ROUNDS + 1):
        if rnd == 1:
            _, pair_took = call("POST", f"/tournaments/{tid}/arbiter", {"action": "start"})
        else:
            if rnd == 2:
                call("POST", f"/tournaments/{tid}/arbiter", {"action": "check_in", "players": late, "present": True})
            _, pair_took = call("POST", f"/tournaments/{tid}/arbiter", {"action": "pair"})
        v, pub_took = call("POST", f"/tournaments/{tid}/arbiter", {"action": "publish", "round": rnd})
        boards = v["rounds_list"][rnd - 1]["boards"]
        entered = []
        for b in boards:
            x = rng.random()
            result = "+-" if x < 0.02 else "1-0" if x < 0.45 else "1/2-1/2" if x < 0.72 else "0-1"
            _, took = call("POST", f"/tournaments/{tid}/arbiter",
                           {"action": "enter", "round": rnd, "board": b["board"], "result": result})
            entered.append(took)
        if rnd == 3 and not corrected:
            call("POST", f"/tournaments/{tid}/arbiter",
                 {"action": "result", "round": 3, "board": 1, "result": "1/2-1/2", "reason": "slip entered wrongly"})
            corrected = True
        entered.sort()
        print(f"round {rnd}: {len(boards)} boards; paired in {pair_took * 1000:.0f} ms, published in "
              f"{pub_took * 1000:.0f} ms; a result entered in {entered[len(entered) // 2] * 1000:.1f} ms "
              f"(median), {entered[-1] * 1000:.1f} ms (slowest)")
    trf, _ = call("GET", f"/tournaments/{tid}/trf?lines=lf")
    path = os.path.join(work, "event.trf")
    with open(path, "w") as f:
        f.write(trf)
    view, _ = call("GET", f"/tournaments/{tid}")

    # bbpPairings re-pairs every round: no discrepancy.
    check = subprocess.run([BBP, "--dutch", path, "-c"], capture_output=True, text=True)
    if check.returncode != 0 or "Checker pairings" in check.stdout + check.stderr:
        fail(f"bbpPairings finds a discrepancy (status {check.returncode}):\n{check.stdout}{check.stderr}")
    print(f"bbpPairings --dutch -c: every one of the {ROUNDS} rounds re-paired as the site paired it")

    # `rookery standings` on the same file: the site's table.
    out = subprocess.run([ROOKERY, "standings", path, "--json", "--fide-k", "auto"], capture_output=True, text=True)
    if out.returncode != 0:
        fail(f"rookery standings: {out.stderr}")
    theirs = {row["name"]: row for row in json.loads(out.stdout)["standings"]}
    codes = view["standings"]["tiebreaks"]
    for row in view["standings"]["rows"]:
        other = theirs.get(row["name"])
        if other is None:
            fail(f"{row['name']} is not in `rookery standings`")
        if (row["rank"], float(row["score"])) != (other["rank"], other["points"]):
            fail(f"{row['name']}: the site ranks {row['rank']} with {row['score']}, the file {other['rank']} with {other['points']}")
        for code, value in zip(codes, row["tiebreaks"]):
            if abs(float(value) - float(other["tiebreaks"][code])) > 1e-9:
                fail(f"{row['name']}: {code} {value} on the site, {other['tiebreaks'][code]} from the file")
        site = row.get("fide_rating_change")
        file = other.get("fide_rating_change")
        if site and (not file or abs(float(site["change"]) - file["change"]) > 1e-9 or site["k"] != file["k"]):
            fail(f"{row['name']}: FIDE change {site} on the site, {file} from the file")
    print(f"rookery standings: the same {len(view['standings']['rows'])} ranks, points, "
          f"tie-breaks ({', '.join(codes)}) and FIDE rating changes as the site")
finally:
    server.terminate()
    server.wait()
