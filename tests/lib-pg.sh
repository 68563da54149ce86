# lib-pg.sh — a throwaway PostgreSQL 15 for one test file; source it after
# tests/lib.sh:   . "$ROOT/tests/lib-pg.sh"; pg_start
#
# pg_start makes a cluster in a new temporary directory (initdb), starts it
# on a free port with its Unix socket in that directory and TCP on
# 127.0.0.1 only, and stops and removes it when the test exits, also when it
# fails or is interrupted (trap). One server per test file: initdb and the
# start are the slow part (docs/postgres.md, "tests"), the checks are cheap.
# As root the server runs as 'nobody' (PostgreSQL refuses to run as root).
# After pg_start:
#   PG_URL       superuser URL over the socket (trust): postgresql:///ledger?host=…
#   PG_TCP_URL   the same database over TCP without credentials (scram-sha-256:
#                give a user and password: PG_TCP_URL is postgresql://127.0.0.1:PORT/ledger)
#   PG_PORT, PG_SOCKDIR, PG_DIR, and pg_sql SQL (psql as the superuser, one value per line)
#   RUNLEDGER_CACHE_DIR  ./replicas: where the commands keep their local replicas
# A test that needs the server calls pg_start; without postgresql-15 it
# fails through `need` saying how to install it. pg_start sets the EXIT
# trap: a test that wants one of its own calls pg_stop in it.

PG_BIN=${PG_BIN:-/usr/lib/postgresql/15/bin}
PATH="$PG_BIN:$PATH"

# the user the server runs as: the caller, or nobody when that is root
pg_as() {
	if [ "$(id -u)" = 0 ]; then setpriv --reuid=nobody --regid=nogroup --clear-groups -- "$@"
	else "$@"; fi
}

pg_stop() {
	[ -n "$PG_DIR" ] || return 0
	[ -f "$PG_DIR/data/postmaster.pid" ] && pg_as pg_ctl -D "$PG_DIR/data" -m immediate -w stop >/dev/null 2>&1
	rm -rf "$PG_DIR"
	PG_DIR=
}

# A port nothing listens on: random in 20000..59999, checked with ss; the
# start below tries again on another should one be taken meanwhile.
pg_free_port() {
	while :; do
		p=$(( $(od -An -N2 -tu2 /dev/urandom) % 40000 + 20000 ))
		ss -Htln "sport = :$p" 2>/dev/null | grep -q . || { echo "$p"; return; }
	done
}

pg_start() {
	# the caller's libpq settings must not steer the tests (a PGSSLMODE or
	# PGPASSWORD of the shell would change what they check)
	unset PGHOST PGHOSTADDR PGPORT PGUSER PGPASSWORD PGPASSFILE PGSERVICE PGSERVICEFILE \
		PGDATABASE PGOPTIONS PGSSLMODE PGREQUIRESSL PGCONNECT_TIMEOUT PGAPPNAME
	need initdb postgresql-15
	need psql postgresql-client-15
	need setpriv util-linux
	PG_DIR=$(mktemp -d /tmp/rl-pg.XXXXXX) || exit 1
	trap 'pg_stop' EXIT
	trap 'pg_stop; exit 130' INT TERM
	chmod 755 "$PG_DIR"
	[ "$(id -u)" = 0 ] && chown nobody:nogroup "$PG_DIR"
	PG_SOCKDIR=$PG_DIR
	t0=$(date +%s%N)
	# no fsync: a test server's data is thrown away, and initdb's syncs
	# are most of its time
	if ! pg_as initdb -D "$PG_DIR/data" -U postgres --no-sync --auth-local=trust \
		--auth-host=scram-sha-256 -E UTF8 --locale=C >"$PG_DIR/initdb.log" 2>&1; then
		not_ok pg-initdb "initdb of a test server failed" "$(tail -5 "$PG_DIR/initdb.log")"
		exit 1
	fi
	t1=$(date +%s%N)
	tries=0
	while :; do
		PG_PORT=$(pg_free_port)
		pg_as pg_ctl -D "$PG_DIR/data" -l "$PG_DIR/server.log" -w -t 30 \
			-o "-p $PG_PORT -k $PG_SOCKDIR -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off" \
			start >/dev/null 2>&1 && break
		tries=$((tries + 1))
		if [ "$tries" -ge 5 ]; then
			not_ok pg-start "the test server did not start (5 ports tried)" "$(tail -5 "$PG_DIR/server.log")"
			exit 1
		fi
	done
	t2=$(date +%s%N)
	PG_URL="postgresql:///ledger?host=$PG_SOCKDIR&port=$PG_PORT&user=postgres"
	PG_TCP_URL="postgresql://127.0.0.1:$PG_PORT/ledger"
	psql -X -q -h "$PG_SOCKDIR" -p "$PG_PORT" -U postgres -d postgres -c 'CREATE DATABASE ledger' >/dev/null || {
		not_ok pg-createdb "CREATE DATABASE on the test server failed"
		exit 1
	}
	echo "# pg: initdb $(( (t1 - t0) / 1000000 )) ms, start $(( (t2 - t1) / 1000000 )) ms (port $PG_PORT)"
	# the local replicas of the commands on a URL (ledger/replica.h) go
	# into the test's directory, never the user's ~/.cache
	RUNLEDGER_CACHE_DIR=$PWD/replicas
	export PG_URL PG_TCP_URL PG_PORT PG_SOCKDIR RUNLEDGER_CACHE_DIR
}

# pg_sql SQL [DATABASE]: run SQL as the superuser; values tab-separated,
# one row per line, errors on stderr and a non-zero status
pg_sql() {
	psql -X -q -A -t -F '	' -v ON_ERROR_STOP=1 -h "$PG_SOCKDIR" -p "$PG_PORT" -U postgres -d "${2:-ledger}" -c "$1"
}
