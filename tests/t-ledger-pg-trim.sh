#!/bin/sh
# t-ledger-pg-trim.sh — `ledger trim-log` on a real PostgreSQL server
# (tests/lib-pg.sh; ledger/pg_log.h): old change log entries removed as one
# transaction, the watermark recorded and never moved back, a replica up
# to date left alone, a replica behind the trim made again from the tables
# (saying so) and right afterwards, the log going on after it, the ingest
# role refused with nothing removed, an SQLite ledger refused.
. "$ROOT/tests/lib.sh"
. "$ROOT/tests/lib-pg.sh"
need jq jq
need sqlite3 sqlite3
pg_start
Q=$FIXTURES/query I=$FIXTURES/ingest
log_count() { pg_sql "SELECT count(*) FROM ledger_log"; }
trimmed() { pg_sql "SELECT coalesce(max(value), 'none') FROM ledger_meta WHERE key = 'log_trimmed_through'"; }
runs_as() { # CACHE: the run count a query through that replica sees
	RUNLEDGER_CACHE_DIR=$PWD/$1 "$LEDGER" --db "$PG_URL" --format tsv query --limit 100000 2>"$1.err" | tail -n +2 | wc -l
}

# replica A stops early; replica B writes on
RUNLEDGER_CACHE_DIR=$PWD/a "$LEDGER" --db "$PG_URL" ingest "$Q/runs.jsonl" >/dev/null 2>&1
export RUNLEDGER_CACHE_DIR=$PWD/b
"$LEDGER" --db "$PG_URL" ingest "$I/run.log" "$I/crash.log" >/dev/null 2>&1
"$LEDGER" --db "$PG_URL" ingest "$I/results.tsv" >/dev/null 2>&1
first=$(pg_sql "SELECT run_id FROM runs ORDER BY id LIMIT 1")
"$LEDGER" --db "$PG_URL" note "$first" "one" >/dev/null 2>&1
"$LEDGER" --db "$PG_URL" note "$first" "two" >/dev/null 2>&1
entries=$(log_count)
last=$(pg_sql "SELECT max(seq) FROM ledger_log")
expect_eq pg-trim-setup "six writes, six log entries" 6 "$entries"

"$LEDGER" --db lite.db init >/dev/null 2>&1
expect_code pg-trim-sqlite "trim-log on an SQLite ledger is a usage error" 2 "$LEDGER" --db lite.db trim-log
expect_match pg-trim-sqlite-msg "saying it keeps no change log" "$err" "SQLite ledger, which keeps no change log"

expect_code pg-trim-dry "a dry run" 0 "$LEDGER" --db "$PG_URL" --format json trim-log --dry-run --keep-bytes 0
expect_eq pg-trim-dry-row "says every entry would go" "yes $entries 0 $last" \
	"$(printf '%s' "$out" | jq -r '[.dry_run, .removed, .kept, .trimmed_through] | join(" ")')"
expect_eq pg-trim-dry-none "and removes nothing" "$entries none" "$(log_count) $(trimmed)"

expect_code pg-trim-default "the default bound (the tables' size)" 0 "$LEDGER" --db "$PG_URL" --format json trim-log --dry-run
expect_eq pg-trim-default-bound "keeps no more bytes than the tables hold" true \
	"$(printf '%s' "$out" | jq '.keep_bytes == .tables_bytes and .kept_bytes <= .tables_bytes and .tables_bytes > 0')"
expect_eq pg-trim-default-sum "and every entry is counted once" "$entries" "$(printf '%s' "$out" | jq '.removed + .kept')"

# the ingest role may not remove entries
awk '/<!-- end roles.sql -->/ { on = 0 } on && !/^```/ { print } /<!-- begin roles.sql -->/ { on = 1 }' \
	"$ROOT/docs/postgres.md" >roles.sql
psql -X -q -v ON_ERROR_STOP=1 -h "$PG_SOCKDIR" -p "$PG_PORT" -U postgres -d ledger -f roles.sql >/dev/null
pg_sql "CREATE ROLE agent7 LOGIN IN ROLE ledger_ingest" >/dev/null
agent_url="postgresql:///ledger?host=$PG_SOCKDIR&port=$PG_PORT&user=agent7"
expect_code pg-trim-role "the ingest role is refused" 3 "$LEDGER" --db "$agent_url" trim-log --keep-bytes 0
expect_match pg-trim-role-msg "told to run it as the owner" "$err" "permission denied.*|hint: trim-log removes log entries: run it as the tables' owner"
expect_eq pg-trim-role-none "and nothing was removed, no watermark" "$entries none" "$(log_count) $(trimmed)"

expect_code pg-trim-all "the owner removes every entry" 0 "$LEDGER" --db "$PG_URL" --format json trim-log --keep-bytes 0
expect_eq pg-trim-all-row "the row says so" "no $entries 0 0 $last" \
	"$(printf '%s' "$out" | jq -r '[.dry_run, .removed, .kept, .kept_bytes, .trimmed_through] | join(" ")')"
expect_eq pg-trim-all-log "the log is empty, the watermark its last entry" "0 $last" "$(log_count) $(trimmed)"

n_server=$(pg_sql "SELECT count(*) FROM runs")
expect_eq pg-trim-b "replica B (up to date) answers" "$n_server" "$(runs_as b)"
expect_eq pg-trim-b-quiet "without a word and without a copy" "" "$(cat b.err)"
expect_eq pg-trim-a "replica A (behind the trim) answers with the server's runs" "$n_server" "$(runs_as a)"
expect_match pg-trim-a-note "after saying it is made again" "$(cat a.err)" "behind the server's change log, trimmed since \(ledger trim-log\)"
expect_eq pg-trim-a-again "and is quiet the next time" "" "$(runs_as a >/dev/null; cat a.err)"

# the log goes on after the trim, and both replicas follow it
"$LEDGER" --db "$PG_URL" ingest "$I/single.json" >/dev/null 2>&1
expect_eq pg-trim-after "a write after the trim gets the next entry" "1 $((last + 1))" \
	"$(log_count) $(pg_sql "SELECT max(seq) FROM ledger_log")"
expect_eq pg-trim-after-a "replica A catches up from the log" "$((n_server + 1)) " "$(runs_as a) $(cat a.err)"

expect_code pg-trim-keep "a bound that keeps everything" 0 "$LEDGER" --db "$PG_URL" --format json trim-log --keep-bytes 100000000
expect_eq pg-trim-keep-row "removes nothing and names no entry" "0 1 0" \
	"$(printf '%s' "$out" | jq -r '[.removed, .kept, .trimmed_through] | join(" ")')"
expect_eq pg-trim-keep-mark "the watermark does not move back" "$last" "$(trimmed)"
expect_code pg-trim-usage "a negative bound is a usage error" 2 "$LEDGER" --db "$PG_URL" trim-log --keep-bytes -1
expect_code pg-trim-check "the ledger checks healthy after it all" 0 "$LEDGER" --db "$PG_URL" check
