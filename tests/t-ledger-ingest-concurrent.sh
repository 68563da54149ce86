# t-ledger-ingest-concurrent.sh — several agents ingest into one ledger at
# once. Test plan: generate two runrec/1 JSONL files of 2500 distinct (enough for the two-thread path)
# records each (awk), start two `ledger ingest` processes on the same
# database at the same time, and check both exit 0, both report all their
# records new, and every record of both files is stored exactly once (WAL +
# busy timeout make the second writer wait instead of failing).
. "$ROOT/tests/lib.sh"
need sqlite3 sqlite3
gen() { # agent count
	awk -v a="$1" -v n="$2" 'BEGIN {
		for (i = 0; i < n; i++)
			printf "{\"schema\":\"runrec/1\",\"run_id\":\"%s-%05d\",\"agent\":\"%s\",\"status\":\"ok\",\"parent\":%s,\"hardware\":{\"gpu_name\":\"NVIDIA H100 80GB HBM3\"},\"config\":{\"model.depth\":%d,\"optim.matrix_lr\":0.04,\"train.seed\":%d},\"metrics\":{\"val_bpb\":%.6f}}\n", a, i, a, i ? sprintf("\"%s-%05d\"", a, i - 1) : "null", 8 + i % 3, i, 0.99 + (i % 97) / 10000
	}'
}
gen alpha 2500 >alpha.jsonl
gen beta 2500 >beta.jsonl
"$LEDGER" --db c.db ingest alpha.jsonl >a.out 2>a.err & pa=$!
"$LEDGER" --db c.db ingest beta.jsonl >b.out 2>b.err & pb=$!
wait $pa; ra=$?
wait $pb; rb=$?
expect_eq ledger-ingest-concurrent-1.1 "both writers exit 0" "0 0" "$ra $rb"
expect_eq ledger-ingest-concurrent-1.2 "both report all records new" \
	"alpha.jsonl: 2500 new, 0 already present, 0 quarantined (runrec)|beta.jsonl: 2500 new, 0 already present, 0 quarantined (runrec)" \
	"$(cat a.out)|$(cat b.out)"
expect_eq ledger-ingest-concurrent-1.3 "no errors" "" "$(cat a.err b.err)"
expect_eq ledger-ingest-concurrent-1.4 "every record stored once" "alpha|2500|2500
beta|2500|2500" "$(sql c.db "SELECT agent, count(*), count(DISTINCT run_id) FROM runs GROUP BY agent ORDER BY agent")"
expect_eq ledger-ingest-concurrent-1.5 "each file went in as one block (one transaction per file)" "2" \
	"$(sql c.db "SELECT count(*) FROM (SELECT agent, max(id) - min(id) + 1 AS span, count(*) AS n FROM runs GROUP BY agent) WHERE span = n")"
expect_eq ledger-ingest-concurrent-1.6 "exact changes for every child" "4998" \
	"$(sql c.db "SELECT count(DISTINCT run) FROM changes WHERE how = 'exact'")"
