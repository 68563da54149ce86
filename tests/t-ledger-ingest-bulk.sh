# t-ledger-ingest-bulk.sh — bulk ingest: a file with at least as many
# records as the ledger holds runs (and 2,048 or more) is stored with the
# secondary indexes dropped and rebuilt before COMMIT (ledger/store.c,
# ledger/db.c). The rule itself is tested in tests/unit/test_bulk_worth.c.
# Test plan: 3,000 generated records (parents, configs with and without
# seeds, four GPUs, repeats, bad lines) go into a new ledger in one file
# (bulk) and, as three files of 1,000 (each below the minimum: record by
# record), into another: same runs, changes and quarantine; both pass
# PRAGMA integrity_check and hold the same indexes with the same SQL as a
# fresh ledger. A second file into each (bulk again on one, and a small
# file into the larger ledger) keeps them equal. Re-ingesting the big file
# adds nothing. An ingest killed half way leaves the ledger whole, indexes
# and all. Records whose configs hold values too large for an arena chunk
# still get their exact changes (the parent-config cache's copies).
. "$ROOT/tests/lib.sh"
need sqlite3 sqlite3
gen() { # first count tag
	awk -v first="$1" -v n="$2" -v tag="$3" 'BEGIN {
		split("NVIDIA H100 80GB HBM3|NVIDIA GeForce RTX 3090|NVIDIA A100-SXM4-40GB|NVIDIA H200", gpu, "|")
		for (i = first; i < first + n; i++) {
			if (i % 97 == 5) { print "{\"schema\":\"runrec/1\",\"status\":\"bogus\"}"; continue }
			parent = i % 10 ? i - 1 : i - 10 # chains, and a link ten back
			parent = parent >= 0 ? sprintf("\"%s-%05d\"", tag, parent) : "null"
			seed = i % 3 ? sprintf(",\"train.seed\":%d", i % 7) : ""
			printf "{\"schema\":\"runrec/1\",\"run_id\":\"%s-%05d\",\"agent\":\"agent%d\",\"campaign\":\"c%d\",\"status\":\"%s\",\"parent\":%s,\"description\":\"depth %d to %d\",\"finished_at\":\"2026-03-%02dT%02d:%02d:00Z\",\"hardware\":{\"gpu_name\":\"%s\",\"gpu_count\":1},\"code\":{\"commit\":\"abc%d\"},\"config\":{\"model.depth\":%d,\"optim.matrix_lr\":%.3f%s},\"metrics\":{\"val_bpb\":%.6f}}\n", tag, i, i % 4, i % 3, i % 13 ? "ok" : "crash", parent, 8 + i % 3, 9 + i % 3, 1 + i % 28, i % 24, i % 60, gpu[1 + i % 4], i % 5, 8 + i % 4, 0.01 * (1 + i % 5), seed, 0.95 + (i % 89) / 1000
		}
	}'
}
dump() { # the rows; not ingested_at, nor where they came from (file, line)
	sqlite3 -batch -noheader "$1" "SELECT id, run_id, content_hash, parent, campaign, agent,
		status, t_finished, hw_class, vram_tier, val_bpb, repeat_key, record FROM runs ORDER BY id;
		SELECT run, var, old, new, how FROM changes ORDER BY run, var;
		SELECT reason, content FROM quarantine ORDER BY id"
}
index_sql() { sql "$1" "SELECT group_concat(name || ': ' || sql, '; ') FROM (SELECT name, sql FROM sqlite_master WHERE type = 'index' ORDER BY name)"; }

gen 0 3000 a >big.jsonl
sed -n '1,1000p' big.jsonl >p1.jsonl
sed -n '1001,2000p' big.jsonl >p2.jsonl
sed -n '2001,3000p' big.jsonl >p3.jsonl
"$LEDGER" --db fresh.db init >/dev/null
fresh=$(index_sql fresh.db)

expect_code ledger-ingest-bulk-1.1 "3000 records into a new ledger (bulk)" 1 "$LEDGER" --db bulk.db ingest big.jsonl
expect_eq ledger-ingest-bulk-1.2 "summary" "big.jsonl: 2969 new, 0 already present, 31 quarantined (runrec)" "$out"
for p in p1 p2 p3; do "$LEDGER" --db one.db ingest $p.jsonl >/dev/null 2>&1; done
expect_eq ledger-ingest-bulk-1.3 "same runs, changes and quarantine as record by record" \
	"$(dump one.db | sha256sum)" "$(dump bulk.db | sha256sum)"
# counted from the generator: 31 bad lines, a-00000 without a parent, 229
# crashes, 31 children of a bad line (changes inferred from the description)
expect_eq ledger-ingest-bulk-1.4 "runs, runs with changes, valid val_bpb, inferred" "2969|2968|2740|31" \
	"$(sql bulk.db "SELECT count(*), (SELECT count(DISTINCT run) FROM changes), count(val_bpb),
		(SELECT count(DISTINCT run) FROM changes WHERE how = 'inferred') FROM runs")"
expect_eq ledger-ingest-bulk-1.5 "integrity_check ok" "ok|ok" "$(sql bulk.db "PRAGMA integrity_check")|$(sql one.db "PRAGMA integrity_check")"
expect_eq ledger-ingest-bulk-1.6 "the indexes of a fresh ledger, same SQL" "$fresh|$fresh" \
	"$(index_sql bulk.db)|$(index_sql one.db)"
expect_match ledger-ingest-bulk-1.7 "and they are the ones db.c lists" "$fresh" \
	"runs_frontier: CREATE INDEX runs_frontier ON runs\(t_finished, id, hw_class, vram_tier, val_bpb\) WHERE val_bpb IS NOT NULL"

# a second file of 3000: bulk again into bulk.db (3000 >= 2969 runs); into
# one.db in pieces of 1000 (below the minimum)
gen 3000 3000 a >more.jsonl
sed -n '1,1000p' more.jsonl >m1.jsonl
sed -n '1001,2000p' more.jsonl >m2.jsonl
sed -n '2001,3000p' more.jsonl >m3.jsonl
expect_code ledger-ingest-bulk-2.1 "a second large file (bulk into a ledger with runs)" 1 \
	"$LEDGER" --db bulk.db ingest more.jsonl
for p in m1 m2 m3; do "$LEDGER" --db one.db ingest $p.jsonl >/dev/null 2>&1; done
expect_eq ledger-ingest-bulk-2.2 "still the same rows" "$(dump one.db | sha256sum)" "$(dump bulk.db | sha256sum)"
expect_eq ledger-ingest-bulk-2.3 "integrity and indexes" "ok|$fresh" "$(sql bulk.db "PRAGMA integrity_check")|$(index_sql bulk.db)"
expect_eq ledger-ingest-bulk-2.4 "exact changes across the two files (a-03000's parent is in the first)" \
	"model.depth|10|8|exact" "$(sql bulk.db "SELECT var, old, new, how FROM changes JOIN runs ON runs.id = run WHERE run_id = 'a-03000' AND var = 'model.depth'")"

expect_code ledger-ingest-bulk-3.1 "re-ingest the first file" 1 "$LEDGER" --db bulk.db ingest big.jsonl
expect_eq ledger-ingest-bulk-3.2 "nothing new" "big.jsonl: 0 new, 2969 already present, 31 quarantined (runrec)" "$out"
expect_eq ledger-ingest-bulk-3.3 "integrity and indexes" "ok|$fresh" "$(sql bulk.db "PRAGMA integrity_check")|$(index_sql bulk.db)"

# killed half way: the transaction never commits, the ledger keeps its
# runs and its indexes (wherever the kill lands: before or after COMMIT)
gen 10000 20000 k >kill.jsonl
"$LEDGER" --db bulk.db ingest kill.jsonl >/dev/null 2>&1 & pid=$!
sleep 0.3
kill -9 $pid 2>/dev/null
wait $pid 2>/dev/null
n=$(sql bulk.db "SELECT count(*) FROM runs")
case $n in 5938|25318) ok ledger-ingest-bulk-4.1 "killed ingest: all or nothing ($n runs)" ;;
*) not_ok ledger-ingest-bulk-4.1 "killed ingest: all or nothing" "runs: $n" ;; esac
expect_eq ledger-ingest-bulk-4.2 "integrity and indexes" "ok|$fresh" "$(sql bulk.db "PRAGMA integrity_check")|$(index_sql bulk.db)"

# configs with a value too large for an arena chunk (common/jsonarena.c
# gives it to malloc): exact changes still found through the parent-config
# cache, and (in the sanitizer build) nothing is leaked or freed twice
awk 'BEGIN {
	big = sprintf("%06000d", 0)
	for (i = 0; i < 2100; i++)
		printf "{\"schema\":\"runrec/1\",\"run_id\":\"g%04d\",\"status\":\"ok\",\"parent\":%s,\"config\":{\"model.depth\":%d,\"note\":\"%s\"}}\n", i, i ? sprintf("\"g%04d\"", i - 1) : "null", 8 + i % 2, big
}' >large.jsonl
expect_code ledger-ingest-bulk-5.1 "2100 records with 6 KB config values" 0 "$LEDGER" --db large.db ingest large.jsonl
expect_eq ledger-ingest-bulk-5.2 "each child changed model.depth only" "2099|2099|2099" \
	"$(sql large.db "SELECT count(*), count(DISTINCT run) FROM changes WHERE how = 'exact' AND var = 'model.depth'")|$(sql large.db "SELECT count(*) FROM changes")"
