#!/usr/bin/env bash
# Rookery on several nodes on this machine (README, "Growing past one machine"): PostgreSQL,
# nats-server, N `rookery serve` nodes and HAProxy in front of them, all on loopback.
#
#   scripts/cluster.sh up [N] [-- ARGS]   # start N nodes (default 3), each `rookery serve …
#                                         # ARGS`; says where to point a browser
#   scripts/cluster.sh status     # what runs, each node's health and its HAProxy sessions
#   scripts/cluster.sh down       # stop everything (the nodes first, storing their clocks)
#
# Installs Debian's postgresql, nats-server and haproxy when missing (as root; otherwise says
# what to install). State, logs and the generated HAProxy config live in CLUSTER_DIR
# (default: target/cluster in the checkout): node-N.log, node-N/ (each node's --data-dir),
# nats.log, haproxy.cfg, haproxy.log, haproxy.sock, the pid files. `status` and `down` must
# be given the same CLUSTER_DIR as `up`.
# Environment: CLUSTER_DIR (the state directory; a relative path is taken from where the
# script is run), ROOKERY (the binary; default: `cargo build --release`,
# target/release/rookery), PORT (HAProxy's, default 8080), NODE_PORT (the first node's,
# default 8081; the others follow), NATS_PORT (default 14222). The database is a throwaway
# PostgreSQL cluster (scripts/postgres-test-server.sh, in a temporary directory): `down`
# deletes it.
#
# Which node a player's connection went to: haproxy.log has a line per request, written as
# soon as the node answers (a socket's at its upgrade), with the player's address, the node
# as `nodes/node-N` and the path, which names the game:
#   127.0.0.1:54608 [06/Dec/2026:19:55:53.325] players nodes/node-1 0/0/1/1314/+1315 101 +165 - - ----
#   1/1/1/1/0 0/0 "GET /api/v1/games/CQoi5LXw/socket HTTP/1.1"
# and HAProxy's stats socket (haproxy.sock, level admin) answers `show sess` (each open
# connection: `src=ADDRESS:PORT fe=players be=nodes srv=node-2`) or `show stat`, e.g.
#   python3 -c 'import socket,sys; s=socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]);
#   s.sendall(b"show sess\n"); print(s.makefile().read())' "$CLUSTER_DIR/haproxy.sock"
# (or `socat - UNIX-CONNECT:…/haproxy.sock`).
set -euo pipefail
# The state directory, absolute before the script moves to the checkout.
dir=${CLUSTER_DIR:+$(realpath -m -- "$CLUSTER_DIR")}
cd "$(dirname "$0")/.."

dir=${dir:-$PWD/target/cluster}
port=${PORT:-8080}
node_port=${NODE_PORT:-8081}
nats_port=${NATS_PORT:-14222}

log() { echo "cluster: $*" >&2; }

alive() { [ -f "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null; }

install_missing() {
    local need=()
    command -v nats-server >/dev/null 2>&1 || [ -x /usr/sbin/nats-server ] || need+=(nats-server)
    command -v haproxy >/dev/null 2>&1 || [ -x /usr/sbin/haproxy ] || need+=(haproxy)
    [ ${#need[@]} -eq 0 ] && return 0
    if [ "$(id -u)" -ne 0 ]; then
        log "missing: ${need[*]} (sudo apt-get install -y ${need[*]})"
        exit 1
    fi
    log "installing Debian's ${need[*]}"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >&2 \
        || { apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >&2; }
}

bin_of() { command -v "$1" 2>/dev/null || echo "/usr/sbin/$1"; }

wait_for() { # URL, what
    for _ in $(seq 1 150); do
        curl -fsS -o /dev/null "$1" 2>/dev/null && return 0
        sleep 0.2
    done
    log "$2 did not answer at $1"
    return 1
}

up() {
    local nodes=3
    if [ $# -gt 0 ] && [ "$1" != "--" ]; then nodes=$1; shift; fi
    [ "${1:-}" = "--" ] && shift
    local serve_args=("$@")
    if alive "$dir/haproxy.pid"; then
        log "already up (scripts/cluster.sh down first)"
        exit 1
    fi
    install_missing
    mkdir -p "$dir"
    if [ -z "${ROOKERY:-}" ]; then
        cargo build --release -q -p rookery
        ROOKERY=target/release/rookery
    fi

    scripts/postgres-test-server.sh >"$dir/postgres.env"
    # shellcheck disable=SC1091
    . "$dir/postgres.env"
    local database=$ROOKERY_TEST_POSTGRES

    if (exec 3<>"/dev/tcp/127.0.0.1/$nats_port") 2>/dev/null; then
        log "port $nats_port is taken (another NATS?): set NATS_PORT"
        exit 1
    fi
    "$(bin_of nats-server)" -a 127.0.0.1 -p "$nats_port" -P "$dir/nats.pid" -l "$dir/nats.log" >/dev/null 2>&1 &
    for _ in $(seq 1 100); do
        (exec 3<>"/dev/tcp/127.0.0.1/$nats_port") 2>/dev/null && break
        sleep 0.1
    done

    # HAProxy tells the nodes each player's address (the PROXY protocol, deploy/haproxy.cfg),
    # so the limits per client address (issue 37) hold as on one node. It connects to them from
    # 127.0.0.2, the one address they trust to send the header: a direct connection from
    # 127.0.0.1 (the health checks below, a developer's curl) is served as itself.
    local balancer=127.0.0.2
    cp deploy/haproxy.cfg "$dir/haproxy.cfg"
    echo "    source $balancer" >>"$dir/haproxy.cfg"
    # The stats socket (header): a `global` section of its own, read after the rest.
    printf 'global\n    stats socket "%s" mode 600 level admin\n' "$dir/haproxy.sock" \
        >"$dir/haproxy-stats.cfg"
    for i in $(seq 1 "$nodes"); do
        local addr="127.0.0.1:$((node_port + i - 1))"
        "$ROOKERY" serve --addr "$addr" --database "$database" \
            --nats "nats://127.0.0.1:$nats_port" --node-id "node-$i" \
            --data-dir "$dir/node-$i" --proxy-protocol "$balancer/32" "${serve_args[@]}" >"$dir/node-$i.log" 2>&1 &
        echo $! >"$dir/node-$i.pid"
        echo "    server node-$i $addr" >>"$dir/haproxy.cfg"
    done
    for i in $(seq 1 "$nodes"); do
        wait_for "http://127.0.0.1:$((node_port + i - 1))/health" "node-$i"
    done

    # In the foreground (-db) of a background job, so that its log (stderr, deploy/haproxy.cfg)
    # goes to haproxy.log.
    ROOKERY_LISTEN="127.0.0.1:$port" "$(bin_of haproxy)" -db -f "$dir/haproxy.cfg" \
        -f "$dir/haproxy-stats.cfg" >"$dir/haproxy.log" 2>&1 &
    echo $! >"$dir/haproxy.pid"
    wait_for "http://127.0.0.1:$port/health" "HAProxy"
    local pg=${database##*@}
    log "$nodes nodes (ports $node_port…$((node_port + nodes - 1))), NATS on $nats_port, PostgreSQL on ${pg%%/*}"
    log "which node each connection went to: $dir/haproxy.log; stats socket $dir/haproxy.sock"
    echo "Rookery: open http://127.0.0.1:$port in a browser (logs in $dir)"
}

# Asks HAProxy's stats socket (python3, if there is one: Debian has no socat by default).
haproxy_ask() {
    [ -S "$dir/haproxy.sock" ] && command -v python3 >/dev/null 2>&1 || return 0
    python3 - "$dir/haproxy.sock" "$1" <<'PY' || true
import socket, sys
s = socket.socket(socket.AF_UNIX)
s.connect(sys.argv[1])
s.sendall(sys.argv[2].encode() + b"\n")
print(s.makefile().read(), end="")
PY
}

status() {
    local name
    for pidfile in "$dir"/*.pid; do
        [ -e "$pidfile" ] || { echo "not up"; return 0; }
        name=$(basename "$pidfile" .pid)
        if alive "$pidfile"; then echo "$name: running (pid $(cat "$pidfile"))"; else echo "$name: stopped"; fi
    done
    curl -fsS "http://127.0.0.1:$port/health" 2>/dev/null && echo || echo "HAProxy: no answer on $port"
    # Per node: HAProxy's view of it and the connections it holds now (scur).
    haproxy_ask "show stat" | awk -F, '$1 == "nodes" && $2 != "BACKEND" {
        printf "HAProxy %s: %s, connections: %s now, %s in all\n", $2, $18, $5, $8 }'
}

down() {
    [ -d "$dir" ] || { log "not up"; return 0; }
    if alive "$dir/haproxy.pid"; then kill "$(cat "$dir/haproxy.pid")"; fi
    # SIGTERM: each node stores its games' clocks and leaves the cluster.
    for pidfile in "$dir"/node-*.pid; do
        [ -e "$pidfile" ] && alive "$pidfile" && kill -TERM "$(cat "$pidfile")"
    done
    for pidfile in "$dir"/node-*.pid; do
        [ -e "$pidfile" ] || continue
        for _ in $(seq 1 100); do alive "$pidfile" || break; sleep 0.1; done
        rm -f "$pidfile"
    done
    if alive "$dir/nats.pid"; then kill "$(cat "$dir/nats.pid")"; fi
    if [ -f "$dir/postgres.env" ]; then
        # shellcheck disable=SC1091
        . "$dir/postgres.env"
        scripts/postgres-test-server.sh stop "$ROOKERY_TEST_POSTGRES_DIR" || true
        rm -f "$dir/postgres.env"
    fi
    rm -f "$dir"/*.pid "$dir/haproxy.sock"
    log "down"
}

case "${1:-}" in
    up) shift; up "$@" ;;
    status) status ;;
    down) down ;;
    *) sed -n '2,31p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
esac
