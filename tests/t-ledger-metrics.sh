# t-ledger-metrics.sh — the metrics table (schema 4, ledger/metrics.h): what
# ingest writes, what reads it, and the upgrade of a version 3 ledger.
# Test plan: ingest records with integer, real, null and absent metrics and
# a running record followed by its final one; the table must hold exactly
# what json_each finds in the stored records (the final record's metrics
# written when it replaces the running one); a metric filter, sort and frontier must give the runs sqlite3
# computes with json_extract from the record text. A copy made version 3
# (no table) opens once with an upgrade that makes the same rows and keeps
# every other row; two processes opening another copy together upgrade it
# once.
. "$ROOT/tests/lib.sh"
need sqlite3 sqlite3

rec() { # rec ID STATUS FINISHED METRICS
	printf '{"schema":"runrec/1","run_id":"%s","agent":"forge","status":"%s","started_at":"2026-03-05T09:00:00Z",%s"hardware":{"gpu_name":"NVIDIA H100 80GB HBM3","gpu_count":1,"gpu_mem_mb":81559},"budget":{"seconds":300},"config":{"model.depth":%s},"metrics":%s}\n' \
		"$1" "$2" "$3" "${5:-8}" "$4"
}
{
	rec a ok '"finished_at":"2026-03-05T10:00:00Z",' '{"val_bpb":1.1,"peak_vram_mb":40000,"mfu_percent":41.5,"my_score":3}'
	rec b ok '"finished_at":"2026-03-05T11:00:00Z",' '{"val_bpb":1.05,"peak_vram_mb":52000.5,"my_score":null}' 9
	rec c crash '"finished_at":"2026-03-05T12:00:00Z",' 'null' 10
	rec d ok '"finished_at":"2026-03-05T13:00:00Z",' '{"val_bpb":1.2,"peak_vram_mb":61000,"my_score":-2.25}' 11
	rec e running '' 'null' 12
} >runs.jsonl
rec e ok '"finished_at":"2026-03-05T14:00:00Z",' '{"val_bpb":1.0,"training_seconds":300,"peak_vram_mb":45000}' 12 >final.jsonl

expect_code metrics-1.1 "ingest" 0 "$LEDGER" --db l.db ingest runs.jsonl
expect_code metrics-1.2 "the final record of e" 0 "$LEDGER" --db l.db ingest final.jsonl
# what the records hold, read by SQLite's JSON functions
FROM_RECORDS="SELECT r.run_id, j.key, CASE WHEN j.type IN ('integer', 'real') THEN CAST(j.value AS REAL) END
	FROM runs r, json_each(r.record, '\$.metrics') j WHERE j.key IS NOT NULL ORDER BY 1, 2"
FROM_TABLE="SELECT r.run_id, m.name, m.value FROM metrics m JOIN runs r ON r.id = m.run ORDER BY 1, 2"
exp=$(sql l.db "$FROM_RECORDS")
expect_eq metrics-1.3 "one row per metric of every stored record, null ones too" "$exp" "$(sql l.db "$FROM_TABLE")"
expect_eq metrics-1.4 "(13 of them: the final record's included)" "13|300.0" \
	"$(sql l.db "SELECT count(*), (SELECT value FROM metrics m JOIN runs r ON r.id = m.run
		WHERE r.run_id = 'e' AND m.name = 'training_seconds') FROM metrics")"

# the same answers as json_extract over the record text
ids() { tail -n +2 | cut -f1 | tr '\n' ' '; }
exp=$(sql l.db "SELECT run_id FROM runs WHERE json_extract(record, '\$.metrics.peak_vram_mb') > 44000
	ORDER BY t_finished, id" | tr '\n' ' ')
expect_code metrics-2.1 "--where on a metric" 0 "$LEDGER" --db l.db query --where 'peak_vram_mb>44000' --format tsv
expect_eq metrics-2.2 "selects the runs json_extract selects" "$exp" "$(printf '%s\n' "$out" | ids)"
exp=$(sql l.db "SELECT run_id FROM runs WHERE json_extract(record, '\$.metrics.my_score') <= 3
	ORDER BY t_finished, id" | tr '\n' ' ')
expect_code metrics-2.3 "a metric outside the common names" 0 "$LEDGER" --db l.db query --where 'metrics.my_score<=3' --format tsv
expect_eq metrics-2.4 "(negative, integer and null values)" "$exp" "$(printf '%s\n' "$out" | ids)"
exp=$(sql l.db "SELECT run_id || char(9) || ifnull(json_extract(record, '\$.metrics.peak_vram_mb'), '')
	FROM runs ORDER BY json_extract(record, '\$.metrics.peak_vram_mb') IS NULL,
	json_extract(record, '\$.metrics.peak_vram_mb') DESC, id")
expect_code metrics-2.5 "--order metric --metric peak_vram_mb --maximize" 0 \
	"$LEDGER" --db l.db query --order metric --metric peak_vram_mb --maximize --format tsv
expect_eq metrics-2.6 "sorts and shows as json_extract does" "$exp" "$(printf '%s\n' "$out" | tail -n +2 | cut -f1,8)"
expect_code metrics-2.7 "frontier of a metric" 0 "$LEDGER" --db l.db frontier --metric peak_vram_mb --maximize --format tsv
expect_eq metrics-2.8 "moves on a, b, d (e is lower than d)" "a b d " "$(printf '%s\n' "$out" | ids)"
expect_code metrics-2.9 "a metric no run records" 2 "$LEDGER" --db l.db query --where 'metrics.nosuch>1' --format tsv
expect_match metrics-2.10 "is still an unknown key" "$err" "unknown key 'nosuch'.*no run records it"
expect_code metrics-2.11 "a metric only recorded as null" 0 "$LEDGER" --db l.db query --where 'metrics.my_score>100' --format tsv
expect_no_match metrics-2.12 "is known" "$err" "my_score"

# schema 3 -> 4: the table is made from the stored records, in the
# upgrade's one transaction; every other row is kept
"$LEDGER" --db l.db note a "kept" >/dev/null 2>&1
all_rows() {
	sql "$1" "SELECT id, run_id, content_hash, record FROM runs ORDER BY id;
		SELECT * FROM changes ORDER BY run, var; SELECT * FROM annotations ORDER BY id;
		SELECT * FROM quarantine ORDER BY id" | sha256sum
}
rows=$(all_rows l.db)
metrics=$(sql l.db "$FROM_TABLE")
for f in v3 v3b; do
	cp l.db $f.db
	# version 3's changes table, as it was: its CHECK an IN list
	sql $f.db "DROP TABLE metrics; ALTER TABLE changes RENAME TO c3; DROP INDEX changes_var;
		CREATE TABLE changes(run INTEGER NOT NULL REFERENCES runs(id), var TEXT NOT NULL,
		 old TEXT, new TEXT, how TEXT NOT NULL CHECK(how IN ('exact','code','inferred')),
		 span TEXT, infer_version INTEGER, PRIMARY KEY(run, var)) WITHOUT ROWID;
		CREATE INDEX changes_var ON changes(var);
		INSERT INTO changes SELECT * FROM c3; DROP TABLE c3; PRAGMA user_version=3;"
done
expect_code metrics-3.1 "a version 3 ledger opens" 0 "$LEDGER" --db v3.db query --format tsv
expect_eq metrics-3.2 "and says it was upgraded" \
	"ledger: warning: ledger 'v3.db': upgrading its schema from version 3 to 4" "$err"
expect_eq metrics-3.3 "to version 4" "4" "$(sql v3.db 'PRAGMA user_version')"
expect_eq metrics-3.4 "its metrics made from the records" "$metrics" "$(sql v3.db "$FROM_TABLE")"
expect_eq metrics-3.5 "runs, changes, annotations, quarantine kept" "$rows" "$(all_rows v3.db)"
expect_code metrics-3.6 "a second open" 0 "$LEDGER" --db v3.db query --format tsv
expect_eq metrics-3.7 "says nothing" "" "$err"
schema() { sql "$1" "SELECT type, name, sql FROM sqlite_master ORDER BY type, name"; }
"$LEDGER" --db fresh.db init >/dev/null
expect_eq metrics-3.8 "its schema is a new ledger's, the changes CHECK included" \
	"$(schema fresh.db)" "$(schema v3.db)"

# two processes open the same version 3 ledger at once: one upgrades
"$LEDGER" --db v3b.db query --format tsv >q1.out 2>q1.err &
p1=$!
"$LEDGER" --db v3b.db summary --format tsv >q2.out 2>q2.err &
p2=$!
wait $p1; r1=$?
wait $p2; r2=$?
expect_eq metrics-4.1 "both succeed" "0 0" "$r1 $r2"
expect_eq metrics-4.2 "one of them upgrades" "1" "$(cat q1.err q2.err | grep -c 'upgrading its schema from version 3 to 4')"
expect_eq metrics-4.3 "the rows made once" "$metrics" "$(sql v3b.db "$FROM_TABLE")"
expect_eq metrics-4.4 "every other row kept" "$rows" "$(all_rows v3b.db)"
