# t-ledger-ingest-identity.sh — a record's content hash is its identity,
# enforced without an index on content_hash (ledger/db.c says why run_id's
# UNIQUE index suffices).
# Test plan: the same record as two texts (keys reordered, spaces), with and
# without a run_id, on the one-thread and the two-thread path (>= 2048
# lines), is stored once and counted "already present"; the same run_id
# with other content is a clash; no two rows share a content_hash; a ledger
# created by the earlier schema (content_hash UNIQUE) gives the same
# summaries and rows.
. "$ROOT/tests/lib.sh"
need sqlite3 sqlite3

# two texts of one record with a run_id, two of one without, one clash
cat >small.jsonl <<'EOF'
{"schema":"runrec/1","run_id":"a","status":"ok","config":{"x":1,"y":2}}
{"status":"ok", "config":{"y":2, "x":1}, "run_id":"a", "schema":"runrec/1"}
{"schema":"runrec/1","status":"crash","description":"no id"}
{ "description":"no id", "status":"crash", "schema":"runrec/1" }
{"schema":"runrec/1","run_id":"a","status":"crash"}
EOF
expect_code ledger-ingest-id-1.1 "a clash makes the ingest partial" 1 "$LEDGER" --db s.db ingest small.jsonl
expect_eq ledger-ingest-id-1.2 "each record once, the other texts present, the clash quarantined" \
	"small.jsonl: 2 new, 2 already present, 1 quarantined (runrec)" "$out"
expect_eq ledger-ingest-id-1.3 "the clash names the stored run" \
	"ledger: ingest: small.jsonl:5: run_id 'a' is already stored with different content (run #1)" "$err"
expect_code ledger-ingest-id-1.4 "second ingest" 1 "$LEDGER" --db s.db ingest small.jsonl
expect_eq ledger-ingest-id-1.5 "second ingest adds nothing" \
	"small.jsonl: 0 new, 4 already present, 1 quarantined (runrec)" "$out"
expect_eq ledger-ingest-id-1.6 "two rows, two hashes" "2|2" \
	"$(sql s.db "SELECT count(*), count(DISTINCT content_hash) FROM runs")"

# 3000 lines: 1000 records, each written three ways (two-thread path)
awk 'BEGIN {
	for (i = 1; i <= 1000; i++) {
		printf "{\"schema\":\"runrec/1\",\"run_id\":\"r%04d\",\"status\":\"ok\",\"metrics\":{\"val_bpb\":1.5}}\n", i
		printf "{\"metrics\":{\"val_bpb\":1.5},\"status\":\"ok\",\"run_id\":\"r%04d\",\"schema\":\"runrec/1\"}\n", i
		printf "{\"schema\":\"runrec/1\",\"status\":\"crash\",\"description\":\"anon %d\"}\n", i % 500
	}
}' >big.jsonl
expect_code ledger-ingest-id-2.1 "3000-line file" 0 "$LEDGER" --db b.db ingest big.jsonl
expect_eq ledger-ingest-id-2.2 "1000 named + 500 anonymous records, the rest present" \
	"big.jsonl: 1500 new, 1500 already present, 0 quarantined (runrec)" "$out"
expect_eq ledger-ingest-id-2.3 "no content_hash twice" "1500|1500" \
	"$(sql b.db "SELECT count(*), count(DISTINCT content_hash) FROM runs")"

# a ledger made by the earlier schema, where content_hash was UNIQUE
sql b.db "SELECT sql || ';' FROM sqlite_master WHERE sql IS NOT NULL" |
	sed 's/content_hash TEXT NOT NULL,/content_hash TEXT NOT NULL UNIQUE,/' >old.sql
printf 'PRAGMA user_version=1;\n' >>old.sql
sqlite3 old.db <old.sql
expect_eq ledger-ingest-id-3.1 "old schema has the UNIQUE index" "1" \
	"$(sql old.db "SELECT count(*) FROM pragma_index_list('runs') i JOIN pragma_index_info(i.name) c WHERE c.name = 'content_hash' AND i.\"unique\"")"
expect_code ledger-ingest-id-3.2 "old schema: ingest" 1 "$LEDGER" --db old.db ingest small.jsonl big.jsonl
expect_eq ledger-ingest-id-3.3 "old schema: same summaries" \
	"small.jsonl: 2 new, 2 already present, 1 quarantined (runrec)
big.jsonl: 1500 new, 1500 already present, 0 quarantined (runrec)" "$out"
expect_eq ledger-ingest-id-3.4 "old schema: same hashes as the new one" \
	"$(sql b.db "SELECT group_concat(content_hash) FROM (SELECT content_hash FROM runs ORDER BY id)")" \
	"$(sql old.db "SELECT group_concat(content_hash) FROM (SELECT content_hash FROM runs WHERE id > 2 ORDER BY id)")"
