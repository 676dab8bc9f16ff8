#!/usr/bin/env bash
# The same game load on one node and on three behind HAProxy (issue 39; BENCHMARKS.md,
# "Several nodes"), each a whole `scripts/cluster.sh` (PostgreSQL, nats-server, HAProxy), the
# load from `rookery bench server --server` through HAProxy. Then, on three nodes, Black's
# sockets straight to node-1 (`--black-sockets`): one side of most games relayed between nodes.
#
# Usage: scripts/bench-cluster.sh [--games N] [--think A..B] [--duration-s S] [--ramp-s S]
#
# Prints one row per run: moves/s, move round trips (p50/p99: sending a move to its broadcast
# coming back on the mover's socket), errors, the share of player actions that needed no relay
# (each node's /health `relay` counters) and each node's CPU over the run (/proc, whole
# process: utime + stime). ROOKERY names the binary (default: build target/release/rookery);
# CLUSTER_DIR the clusters' state directory, as for scripts/cluster.sh.
set -euo pipefail
cluster_dir=${CLUSTER_DIR:+$(realpath -m -- "$CLUSTER_DIR")}
cd "$(dirname "$0")/.."

games=150
think=1000..2000
duration=30
ramp=10
while [ $# -gt 0 ]; do
    case "$1" in
        --games) games=$2; shift 2 ;;
        --think) think=$2; shift 2 ;;
        --duration-s) duration=$2; shift 2 ;;
        --ramp-s) ramp=$2; shift 2 ;;
        -h|--help) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "bench-cluster: unknown argument $1" >&2; exit 2 ;;
    esac
done
if [ -z "${ROOKERY:-}" ]; then
    cargo build --release -q -p rookery
    ROOKERY=target/release/rookery
fi
export ROOKERY
port=${PORT:-18080}
node_port=${NODE_PORT:-18081}
export PORT=$port NODE_PORT=$node_port NATS_PORT=${NATS_PORT:-14232}
# The whole load comes from one address (127.0.0.1), which HAProxy tells the nodes (the PROXY
# protocol): the limits per client address (issue 37) are lifted for it.
per_address=(--max-connections-per-address 1000000 --seeks-per-address 1000000
    --seeks-per-address-per-minute 1000000 --signups-per-address 1000000)
dir=${cluster_dir:-$PWD/target/cluster}
export CLUSTER_DIR=$dir

cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }

run() { # NODES, label, extra bench args...
    local nodes=$1 label=$2
    shift 2
    scripts/cluster.sh up "$nodes" -- "${per_address[@]}" >/dev/null 2>"$dir.log" || { cat "$dir.log" >&2; exit 1; }
    local pids=() before=()
    for i in $(seq 1 "$nodes"); do
        pids+=("$(cat "$dir/node-$i.pid")")
        before+=("$(cpu_ticks "${pids[-1]}")")
    done
    local started=$SECONDS
    local json
    json=$("$ROOKERY" bench server --server "http://127.0.0.1:$port" --games "$games" \
        --move-interval-ms "$think" --duration-s "$duration" --ramp-s "$ramp" --json "$@")
    local elapsed=$((SECONDS - started))
    local hz
    hz=$(getconf CLK_TCK)
    local cpus=() local_actions=0 relayed=0 handed=0
    for i in $(seq 1 "$nodes"); do
        local ticks=$(($(cpu_ticks "${pids[$((i - 1))]}") - before[i - 1]))
        cpus+=("$(awk -v t="$ticks" -v hz="$hz" -v s="$elapsed" 'BEGIN { printf "%.2f", t / hz / s }')")
        local health
        health=$(curl -fsS "http://127.0.0.1:$((node_port + i - 1))/health")
        local_actions=$((local_actions + $(echo "$health" | python3 -c 'import json,sys; print(json.load(sys.stdin)["relay"]["local_actions"])')))
        relayed=$((relayed + $(echo "$health" | python3 -c 'import json,sys; print(json.load(sys.stdin)["relay"]["relayed_actions"])')))
        handed=$((handed + $(echo "$health" | python3 -c 'import json,sys; print(json.load(sys.stdin)["relay"]["handed_over"])')))
    done
    scripts/cluster.sh down >/dev/null 2>&1
    echo "$json" | python3 -c '
import json, sys
r = json.load(sys.stdin)
label, nodes, local, relayed, handed, cpus = sys.argv[1:7]
local, relayed = int(local), int(relayed)
rt = r["round_trip"] or {"p50_ms": 0, "p99_ms": 0, "max_ms": 0}
e = r["errors"]
errors = sum(e.values()) if isinstance(e, dict) else (sum(n for _, n in e) if isinstance(e, list) else e)
share = 100.0 * local / max(1, local + relayed)
rate, p50, p99, top = r["moves_per_s"], rt["p50_ms"], rt["p99_ms"], rt["max_ms"]
print(f"| {label} | {nodes} | {rate:.1f} | {p50:.2f} ms | {p99:.2f} ms | {top:.1f} ms | {errors} | {share:.1f} % ({relayed} relayed) | {handed} | {cpus} |")
' "$label" "$nodes" "$local_actions" "$relayed" "$handed" "${cpus[*]}"
}

echo "$games games, think $think ms, ${duration} s measured after a ${ramp} s ramp; $(date -u +%F)"
echo "| run | nodes | moves/s | p50 | p99 | max | errors | actions without relay | games handed over | CPU per node (cores) |"
echo "|---|---|---|---|---|---|---|---|---|---|"
run 1 "one node" 
run 3 "three nodes"
run 3 "three nodes, Black on node-1" --black-sockets "http://127.0.0.1:$node_port"
