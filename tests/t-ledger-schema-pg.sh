#!/bin/sh
# t-ledger-schema-pg.sh — schema version 4 on a real PostgreSQL 15
# (tests/lib-pg.sh): the metrics table, its rows carried by push, and the
# upgrade of a version 3 ledger (ledger/pg_schema.c).
# Test plan: push an SQLite ledger; the server's metrics rows must equal the
# local ones value for value. Make the server's ledger version 3 again (no
# metrics table); two inits at once must upgrade it once, making the same
# rows and keeping every other row. A role that does not own the tables
# must be refused with what to do, leaving the ledger at version 3; then
# the owner's init upgrades it.
. "$ROOT/tests/lib.sh"
. "$ROOT/tests/lib-pg.sh"
need sqlite3 sqlite3
pg_start

{ "$LEDGER" --db a.db ingest "$FIXTURES/query/runs.jsonl" &&
  "$LEDGER" --db a.db ingest "$FIXTURES/filters/extra.jsonl" &&
  "$LEDGER" --db a.db note h100-d12 'kept'; } >/dev/null 2>&1 || not_ok schema-pg-0 "fixtures ingest"
n=$(sql a.db "SELECT count(*) FROM metrics")
# the local rows as VALUES, 17 significant digits: equal only if exact
vals=$(sql a.db "SELECT group_concat(printf('(%Q, %Q, %s)', r.run_id, m.name,
	ifnull(printf('%!.17g', m.value), 'NULL')), ', ') FROM metrics m JOIN runs r ON r.id = m.run")
same_rows() { # DB: how many of the server's metrics rows equal a local one
	pg_sql "SELECT count(*) FROM (VALUES $vals) v(run_id, name, value) JOIN runs r ON r.run_id = v.run_id
		JOIN metrics m ON m.run = r.id AND m.name = v.name AND m.value IS NOT DISTINCT FROM v.value::float8" "$1"
}
expect_code schema-pg-1.1 "push a local ledger" 0 "$LEDGER" --db a.db push "$PG_URL"
expect_eq schema-pg-1.2 "the server has every metrics row, value for value" "$n $n" \
	"$(pg_sql "SELECT count(*) FROM metrics") $(same_rows ledger)"
[ "$n" -gt 20 ] && ok schema-pg-1.3 "(there were $n rows)" || not_ok schema-pg-1.3 "(there were rows)" "$n"

# ---- version 3 -> 4 --------------------------------------------------------
all_rows() {
	pg_sql "SELECT id, run_id, content_hash, record FROM runs ORDER BY id" | sha256sum
	pg_sql "SELECT * FROM changes ORDER BY run, var; SELECT * FROM annotations ORDER BY id" | sha256sum
}
rows=$(all_rows)
make_v3() {
	pg_sql "BEGIN; DROP TABLE metrics; UPDATE ledger_meta SET value = '3' WHERE key = 'schema_version'; COMMIT" >/dev/null
}
make_v3
"$LEDGER" --db "$PG_URL" init >i1.out 2>i1.err & p1=$!
"$LEDGER" --db "$PG_URL" init >i2.out 2>i2.err & p2=$!
wait $p1; r1=$?; wait $p2; r2=$?
[ "$r1 $r2" = "0 0" ] || cat i1.err i2.err | sed 's/^/# /'
expect_eq schema-pg-2.1 "two inits of a version 3 ledger at once both succeed" "0 0" "$r1 $r2"
expect_eq schema-pg-2.2 "one of them upgrades it, saying so" "1" \
	"$(cat i1.err i2.err | grep -c "upgrading its schema from version 3 to 4")"
expect_eq schema-pg-2.3 "to version 4" 4 "$(pg_sql "SELECT value FROM ledger_meta WHERE key = 'schema_version'")"
expect_eq schema-pg-2.4 "the metrics made from the stored records, once" "$n $n" \
	"$(pg_sql "SELECT count(*) FROM metrics") $(same_rows ledger)"
expect_eq schema-pg-2.5 "runs, changes and annotations kept" "$rows" "$(all_rows)"
expect_code schema-pg-2.6 "init again" 0 "$LEDGER" --db "$PG_URL" init
expect_eq schema-pg-2.7 "says nothing more" "" "$err"
expect_code schema-pg-2.8 "check finds the upgraded schema whole" 0 "$LEDGER" --db "$PG_URL" check

# ---- a role that does not own the tables ----------------------------------
make_v3
pg_sql "CREATE ROLE agent7 LOGIN; GRANT USAGE, CREATE ON SCHEMA public TO agent7;
	GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO agent7" >/dev/null
agent_url="postgresql:///ledger?host=$PG_SOCKDIR&port=$PG_PORT&user=agent7"
expect_code schema-pg-3.1 "init of a version 3 ledger by a role that does not own it" 3 \
	"$LEDGER" --db "$agent_url" init
expect_match schema-pg-3.2 "says permission was denied" "$err" "permission denied"
expect_match schema-pg-3.3 "and who can upgrade it" "$err" "run 'ledger --db URL init' once as the role that ran 'ledger init'"
expect_eq schema-pg-3.4 "nothing changed: version 3, no metrics table" "3 f" \
	"$(pg_sql "SELECT value FROM ledger_meta WHERE key = 'schema_version'") $(pg_sql "SELECT to_regclass('metrics') IS NOT NULL")"
expect_code schema-pg-3.5 "the owner's init" 0 "$LEDGER" --db "$PG_URL" init
expect_eq schema-pg-3.6 "upgrades it" "4 $n" \
	"$(pg_sql "SELECT value FROM ledger_meta WHERE key = 'schema_version'") $(same_rows ledger)"
