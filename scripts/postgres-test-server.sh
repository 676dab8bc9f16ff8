#!/usr/bin/env bash
# A throwaway PostgreSQL server for the rookery-store tests (see scripts/README.md).
#
#   eval "$(scripts/postgres-test-server.sh)"      # start; sets ROOKERY_TEST_POSTGRES(_DIR)
#   scripts/postgres-test-server.sh stop DIR        # stop it and delete DIR
#
# Start installs Debian's postgresql package if initdb/pg_ctl are missing, creates a cluster in
# a new temporary directory, starts it on a free loopback port as a non-root user (initdb
# refuses root: as root it runs as the `postgres` system user, created if missing), and prints
# two export lines on stdout. Everything else goes to stderr.
set -euo pipefail

log() { echo "postgres-test-server: $*" >&2; }

# The directory holding initdb and pg_ctl: PATH first, then Debian's versioned directories.
find_bin() {
    if command -v initdb >/dev/null 2>&1 && command -v pg_ctl >/dev/null 2>&1; then
        dirname "$(readlink -f "$(command -v initdb)")"
        return 0
    fi
    local dir
    dir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
    if [ -n "$dir" ] && [ -x "$dir/initdb" ] && [ -x "$dir/pg_ctl" ]; then
        echo "$dir"
        return 0
    fi
    return 1
}

# Runs a command as the cluster's owner.
as_owner() {
    if [ "$(id -u)" -eq 0 ]; then
        if command -v runuser >/dev/null 2>&1; then
            runuser -u postgres -- "$@"
        else
            su postgres -s /bin/sh -c "$(printf '%q ' "$@")"
        fi
    else
        "$@"
    fi
}

if [ "${1:-}" = "stop" ]; then
    dir=${2:-${ROOKERY_TEST_POSTGRES_DIR:-}}
    if [ -z "$dir" ] || [ ! -f "$dir/data/PG_VERSION" ]; then
        log "stop: no cluster in '${dir}'"
        exit 1
    fi
    bin=$(find_bin)
    as_owner "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >&2 || true
    rm -rf "$dir"
    log "stopped and removed $dir"
    exit 0
fi

if ! bin=$(find_bin); then
    if [ "$(id -u)" -ne 0 ]; then
        log "initdb/pg_ctl not found; install PostgreSQL (apt-get install postgresql) or run as root"
        exit 1
    fi
    log "installing Debian's postgresql package"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >&2
    apt-get install -y -qq postgresql >&2
    bin=$(find_bin) || { log "postgresql installed but initdb/pg_ctl not found"; exit 1; }
fi
log "using $bin"

if [ "$(id -u)" -eq 0 ] && ! id postgres >/dev/null 2>&1; then
    log "creating the postgres system user"
    useradd --system --home-dir /nonexistent --shell /usr/sbin/nologin postgres
fi

dir=$(mktemp -d "${TMPDIR:-/tmp}/rookery-postgres.XXXXXX")
chmod 700 "$dir"
[ "$(id -u)" -eq 0 ] && chown postgres: "$dir"

# A random password for the superuser role `rookery`; the server listens on loopback only.
password=$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
as_owner sh -c "umask 077; printf '%s\n' '$password' > '$dir/pwfile'"
as_owner "$bin/initdb" -D "$dir/data" -U rookery --pwfile="$dir/pwfile" \
    --auth=scram-sha-256 -E UTF8 --locale=C >"$dir/initdb.log" 2>&1 \
    || { cat "$dir/initdb.log" >&2; log "initdb failed"; exit 1; }
rm -f "$dir/pwfile"

# A free loopback port: try random ones until one is closed and the server starts on it.
started=
for _ in $(seq 1 20); do
    port=$((20000 + RANDOM % 40000))
    if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
        continue # in use
    fi
    # fsync off: a throwaway test cluster, rebuilt on every run; speed over crash safety.
    if as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
        -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c fsync=off -c full_page_writes=off -c max_connections=200" \
        start >/dev/null 2>&1; then
        started=1
        break
    fi
done
if [ -z "$started" ]; then
    cat "$dir/server.log" >&2 || true
    log "could not start the server"
    exit 1
fi

url="postgres://rookery:$password@127.0.0.1:$port/rookery"
PGPASSWORD=$password "$bin/createdb" -h 127.0.0.1 -p "$port" -U rookery rookery
log "PostgreSQL $("$bin/pg_ctl" --version | awk '{print $3}') on 127.0.0.1:$port, data in $dir"
echo "export ROOKERY_TEST_POSTGRES=$url"
echo "export ROOKERY_TEST_POSTGRES_DIR=$dir"
