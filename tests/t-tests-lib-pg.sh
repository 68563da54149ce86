#!/bin/sh
# t-tests-lib-pg.sh — tests/lib-pg.sh itself: the throwaway server is stopped
# and its directory removed when the test using it is interrupted (TERM, as
# a stopped `make test`), not only when it ends.
. "$ROOT/tests/lib.sh"
# Debian keeps initdb out of PATH, where lib-pg.sh looks for it too
PATH="${PG_BIN:-/usr/lib/postgresql/15/bin}:$PATH"
need initdb postgresql-15
# a test that starts a server and is then killed while it waits
sh -c '. "$ROOT/tests/lib.sh"; . "$ROOT/tests/lib-pg.sh"; pg_start >/dev/null
	echo "$PG_DIR $(head -1 "$PG_DIR/data/postmaster.pid")" >started
	sleep 60 & wait $!' &
child=$!
for _ in $(seq 1 300); do [ -s started ] && break; sleep 0.1; done
read -r dir pid <started
expect_match lib-pg-running "the server runs while the test does" "$(cat "/proc/$pid/comm" 2>/dev/null)" '^postgres$'
kill -TERM "$child"
wait "$child"
rc=$?
expect_eq lib-pg-term-status "the interrupted test exits 130" 130 "$rc"
gone=no
for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || { gone=yes; break; }; sleep 0.1; done
expect_eq lib-pg-term-stopped "its server is stopped" yes "$gone"
expect_eq lib-pg-term-removed "its directory is removed" no "$([ -e "$dir" ] && echo yes || echo no)"
