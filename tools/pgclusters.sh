# Throwaway PostgreSQL servers on loopback ports, from the server of
# tools/testlib.sh's pg_use (PG_BIN): one for most suites, several for Citus
# (a coordinator and two workers) and postgres_fdw (two).  Sourced.
#
#   pgc_setup NAME                 a private directory for this run's servers
#   pgc_start NAME [SETTING=VALUE]...
#                                  a copy of an initdb made once + start; sets PGC_PORT_<NAME>
#   pgc_env NAME                   PGHOST, PGPORT, PGUSER, PGDATABASE, PGPASSWORD for that server
#   pgc_psql NAME [psql args]...   psql as the superuser, on that server
#   pgc_stop_all                   stop every server started here, remove them
#   pgc_run [SETTING=VALUE]... -- COMMAND...
#                                  COMMAND with one fresh server's PG* variables
#                                  (what pg_virtualenv does, for any major)
#
# PostgreSQL refuses to run as root: as root the servers run as the
# `postgres` user (created here if missing), otherwise as the caller.
# Authentication is trust on 127.0.0.1 and a private socket directory; the
# servers listen on loopback only and live as long as the suite
# (pgc_stop_all runs on exit).
# shellcheck shell=bash

PGC_DIR=
PGC_NAMES=()

pgc_as_owner() {
    if [ "$(id -u)" -eq 0 ]; then
        runuser -u postgres -- "$@"
    else
        "$@"
    fi
}

pgc_free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

pgc_setup() {
    if [ "$(id -u)" -eq 0 ] && ! id postgres >/dev/null 2>&1; then
        useradd --system --user-group --home-dir /var/lib/postgresql --shell /bin/bash postgres
    fi
    PGC_DIR=$(mktemp -d "/tmp/bloomfilter-$1.XXXXXX")
    chmod 755 "$PGC_DIR"
    [ "$(id -u)" -ne 0 ] || chown postgres: "$PGC_DIR"
    trap pgc_stop_all EXIT
    trap 'exit 143' TERM INT HUP
}

# The initdb of PG_BIN's server, made once and copied for every server
# (a copy takes a fraction of an initdb): /tmp/bloomfilter-initdb/KEY/data,
# KEY naming the binaries and their version.
pgc_template() {
    local key top=/tmp/bloomfilter-initdb
    key=$(echo "$PG_BIN $("$PG_BIN/postgres" --version)" | md5sum | cut -c1-16)
    PGC_TEMPLATE=$top/$key/data
    [ ! -f "$top/$key/complete" ] || return 0
    mkdir -p "$top"
    (
        flock 8
        [ ! -f "$top/$key/complete" ] || exit 0
        rm -rf "$top/$key"
        mkdir -p "$top/$key"
        [ "$(id -u)" -ne 0 ] || chown postgres: "$top/$key"
        pgc_as_owner "$PG_BIN/initdb" -D "$PGC_TEMPLATE" -U postgres -A trust --no-sync -E UTF8 --locale=C.UTF-8 \
            > "$top/$key/initdb.log" 2>&1 || { cat "$top/$key/initdb.log"; exit 1; }
        touch "$top/$key/complete"
    ) 8>"$top/$key.lock"
}

pgc_start() {
    local name=$1; shift
    local data=$PGC_DIR/$name port s tries
    pgc_template || return 1
    pgc_as_owner cp -a "$PGC_TEMPLATE" "$data" || return 1
    {
        echo "listen_addresses = '127.0.0.1'"
        echo "unix_socket_directories = '$PGC_DIR'"
        echo "fsync = off"
        echo "synchronous_commit = off"
        echo "full_page_writes = off"
        for s in "$@"; do echo "${s%%=*} = ${s#*=}"; done
    } | pgc_as_owner tee -a "$data/postgresql.conf" > /dev/null
    for tries in 1 2 3 4 5; do
        port=$(pgc_free_port)
        if pgc_as_owner "$PG_BIN/pg_ctl" -D "$data" -l "$PGC_DIR/$name.log" -w -t 60 \
            -o "-p $port" start > /dev/null 2>&1; then
            PGC_NAMES+=("$name")
            printf -v "PGC_PORT_$name" '%s' "$port"
            return 0
        fi
    done
    cat "$PGC_DIR/$name.log"
    return 1
}

pgc_port() {
    local v=PGC_PORT_$1
    echo "${!v}"
}

pgc_env() { # a password as pg_virtualenv gives one (tests hand it to postgres_fdw; trust ignores it)
    export PGHOST=127.0.0.1 PGPORT PGUSER=postgres PGDATABASE=postgres PGPASSWORD
    PGPORT=$(pgc_port "$1")
    PGPASSWORD=${PGPASSWORD:-$(od -An -tx8 -N8 /dev/urandom | tr -d ' ')}
}

pgc_psql() {
    local name=$1; shift
    "$PG_BIN/psql" -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$(pgc_port "$name")" -U postgres -d postgres "$@"
}

pgc_stop_all() {
    local name
    for name in "${PGC_NAMES[@]}"; do
        pgc_as_owner "$PG_BIN/pg_ctl" -D "$PGC_DIR/$name" -m immediate stop > /dev/null 2>&1 || true
    done
    PGC_NAMES=()
    [ -z "$PGC_DIR" ] || rm -rf "$PGC_DIR"
    PGC_DIR=
}

pgc_run() {
    local settings=()
    while [ $# -gt 0 ] && [ "$1" != -- ]; do settings+=("$1"); shift; done
    shift
    (
        pgc_setup run
        pgc_start main "${settings[@]}" || exit 1
        pgc_env main
        "$@"
    )
}
