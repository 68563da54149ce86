# t-ledger-ingest.sh — `ledger ingest` of runrec/1 JSONL and single objects.
# Test plan: ingest tests/fixtures/ingest/runs.jsonl (5 good records, a blank
# line, a re-ordered duplicate, truncated JSON, a wrong type, an unknown
# status, a run_id clash, a record without run_id) and single.json; check
# the summary line, exit 1 (partial), each stderr report with file:line,
# stored columns (tags, valid val_bpb, t_finished), exact changes, repeat
# groups; a second ingest adds nothing and stores no second quarantine row;
# usage errors exit 2; --format json gives the documented keys.
. "$ROOT/tests/lib.sh"
need sqlite3 sqlite3
F=$FIXTURES/ingest
cp "$F/runs.jsonl" "$F/single.json" .
DB=l.db

expect_code ledger-ingest-1.1 "partial ingest exits 1" 1 "$LEDGER" --db $DB ingest runs.jsonl single.json
expect_eq ledger-ingest-1.2 "summary lines" "runs.jsonl: 6 new, 1 already present, 4 quarantined (runrec)
single.json: 1 new, 0 already present, 0 quarantined (runrec)" "$out"
expect_eq ledger-ingest-1.3 "stderr names file:line and reason" \
"ledger: ingest: runs.jsonl:8: invalid JSON at column 63: string or '}' expected near end of file
ledger: ingest: runs.jsonl:9: field 'metrics.val_bpb': expected a number or null, got string
ledger: ingest: runs.jsonl:10: field 'status': 'exploded' is not one of ok|crash|oom|nan|timeout|killed|invalid|running
ledger: ingest: runs.jsonl:11: run_id 'h100-a1b2c3-0003' is already stored with different content (run #3)" "$err"

expect_eq ledger-ingest-1.4 "runs in ingest order with tags" \
"1|h100-a1b2c3-0001||ok|baseline|H100|xl|0.9979|2026-03-16T04:05:26Z|1773633926.0|runrec|1
2|h100-a1b2c3-0002|h100-a1b2c3-0001|ok|keep|H100|xl|0.9941|2026-03-16T04:11:26Z|1773634286.0|runrec|2
3|h100-a1b2c3-0003|h100-a1b2c3-0002|ok|discard|H100|xl|0.9987|2026-03-16T04:17:26Z|1773634646.0|runrec|3
4|h100-a1b2c3-0004|h100-a1b2c3-0002|oom||H100|xl||2026-03-16T04:23:26Z|1773635006.0|runrec|5
5|h100-a1b2c3-0005|h100-a1b2c3-0002|ok|discard|H100|xl|0.9946|2026-03-16T04:29:26Z|1773635366.0|runrec|6
6|r-83ce7771aa2abe69|h100-a1b2c3-0002|ok|discard|H100|xl|0.9944|2026-03-16T04:35:26Z|1773635726.0|runrec|12
7|h100-a1b2c3-0009|h100-a1b2c3-0002|ok|keep|H100|xl|0.9938|2026-03-16T04:53:26Z|1773636806.0|runrec|1" \
"$(sql $DB "SELECT id, run_id, parent, status, decision, hw_class, vram_tier, val_bpb, finished_at, t_finished, source_format, source_line FROM runs ORDER BY id")"

expect_eq ledger-ingest-1.5 "exact changes against the parent config" \
"2|optim.matrix_lr|0.04|0.05|exact
3|model.depth|8|9|exact
3|model.dim|512|576|exact
4|impl.recompute|false|true|exact
4|train.device_batch_size|64|128|exact
5|train.seed|1|2|exact
6|train.seed|1|3|exact
7|sched.warmdown_ratio|0.5|0.6|exact" "$(sql $DB "SELECT run, var, old, new, how FROM changes ORDER BY run, var")"

# 5 and 6 changed only the seed of 2 (on commits of their own): they
# measure 2's configuration again, so 2 is in their group (rkey.h)
expect_eq ledger-ingest-1.6 "seeds aside, runs 5 and 6 repeat their parent 2; no other group" "2,5,6" \
	"$(sql $DB "SELECT group_concat(id) FROM runs GROUP BY repeat_key HAVING count(*) > 1")"
expect_eq ledger-ingest-1.7 "content hash is the identity of the record as received" \
	"$(sql $DB "SELECT 'r-' || substr(content_hash, 1, 16) FROM runs WHERE id = 6")" \
	"$(sql $DB "SELECT run_id FROM runs WHERE id = 6")"
expect_eq ledger-ingest-1.8 "the stored record is canonical JSON with its run_id" \
	'r-83ce7771aa2abe69|0.05|{"agent":"forge","budget":{"seco' \
	"$(sql $DB "SELECT json_extract(record, '\$.run_id'), json_extract(record, '\$.config.\"optim.matrix_lr\"'), substr(record, 1, 32) FROM runs WHERE id = 6")"

expect_eq ledger-ingest-1.9 "quarantine keeps file, line and the line's exact content" \
	"$(for l in 8 9 10 11; do printf 'runs.jsonl|%s|%s\n' $l "$(sed -n "${l}p" runs.jsonl)"; done)" \
	"$(sql $DB "SELECT source_file, line, content FROM quarantine ORDER BY id")"

# --- idempotence -------------------------------------------------------
expect_code ledger-ingest-2.1 "second ingest is still partial" 1 "$LEDGER" --db $DB ingest runs.jsonl single.json
expect_eq ledger-ingest-2.2 "second ingest adds nothing" "runs.jsonl: 0 new, 7 already present, 4 quarantined (runrec)
single.json: 0 new, 1 already present, 0 quarantined (runrec)" "$out"
expect_eq ledger-ingest-2.3 "no new rows anywhere" "7|8|4" \
	"$(sql $DB "SELECT (SELECT count(*) FROM runs), (SELECT count(*) FROM changes), (SELECT count(*) FROM quarantine)")"

# --- stdin, json summary, clean exit -------------------------------------
head -n 3 runs.jsonl >good.jsonl
expect_code ledger-ingest-3.1 "all-good input exits 0" 0 "$LEDGER" --db fresh.db ingest - <good.jsonl
expect_eq ledger-ingest-3.2 "stdin is named stdin" "stdin: 3 new, 0 already present, 0 quarantined (runrec)" "$out"
expect_eq ledger-ingest-3.3 "stdin rows record their source" "stdin|3" "$(sql fresh.db "SELECT source_file, count(*) FROM runs")"
expect_code ledger-ingest-3.4 "--format json summary" 0 "$LEDGER" --db fresh.db ingest --format json good.jsonl
expect_eq ledger-ingest-3.5 "json summary keys and counts" '[{"file":"good.jsonl","format":"runrec","new":0,"present":3,"quarantined":0,"ended":0,"updated":0}]' \
	"$(printf '%s' "$out" | tr -d ' \n')"

# --- usage -------------------------------------------------------------
expect_code ledger-ingest-4.1 "unknown option exits 2" 2 "$LEDGER" --db fresh.db ingest --frobnicate good.jsonl
expect_eq ledger-ingest-4.2 "unknown option message" "ledger: ingest: unknown option '--frobnicate'
ledger: hint: run 'ledger ingest --help'" "$err"
expect_code ledger-ingest-4.3 "no files exits 2" 2 "$LEDGER" --db fresh.db ingest
expect_code ledger-ingest-4.4 "a missing file exits 2, the others still go in" 2 "$LEDGER" --db m.db ingest nope.jsonl good.jsonl
expect_eq ledger-ingest-4.5 "the readable file was ingested" "good.jsonl: 3 new, 0 already present, 0 quarantined (runrec)" "$out"
expect_match ledger-ingest-4.6 "the missing file is named" "$err" "^ledger: cannot open 'nope.jsonl': No such file or directory"
printf 'hello world\nthis is not a run\n' >prose.txt
expect_code ledger-ingest-4.7 "unrecognised content exits 2" 2 "$LEDGER" --db m.db ingest prose.txt
expect_eq ledger-ingest-4.8 "unrecognised content message" "ledger: ingest: prose.txt: cannot tell the format from the content
ledger: hint: pass --as runrec|results.tsv|run.log|arh.json" "$err"
expect_code ledger-ingest-4.9 "bad --as exits 2" 2 "$LEDGER" --db m.db ingest --as yaml good.jsonl
expect_code ledger-ingest-4.10 "bad --started-at exits 2 (yesterday is a time now: tests/t-typed-dates.sh)" 2 "$LEDGER" --db m.db ingest --started-at soon good.jsonl

# --- options fill what records lack ------------------------------------
printf '{"schema":"runrec/1","status":"crash","description":"no hardware"}\n' >bare.jsonl
expect_code ledger-ingest-5.1 "options fill missing fields" 0 "$LEDGER" --db o.db ingest bare.jsonl \
	--agent forge --campaign c1 --hardware "NVIDIA GeForce RTX 3090" --started-at 2026-03-16T04:00:00Z
expect_eq ledger-ingest-5.2 "agent, campaign, gpu, class, tier, time" \
	"forge|c1|NVIDIA GeForce RTX 3090|RTX 3090|medium|2026-03-16T04:00:00Z|1773633600.0||64" \
	"$(sql o.db "SELECT agent, campaign, gpu_name, hw_class, vram_tier, started_at, t_finished, val_bpb, length(repeat_key) FROM runs")"

# --- control characters in reports -------------------------------------
printf '{"schema":"runrec/1","status":"we\\u001b[31mird"}\n' >esc.jsonl
expect_code ledger-ingest-6.1 "a bad status is quarantined" 1 "$LEDGER" --db e.db ingest esc.jsonl
expect_eq ledger-ingest-6.2 "control characters are escaped on stderr" \
	"ledger: ingest: esc.jsonl:1: field 'status': 'we\\x1b[31mird' is not one of ok|crash|oom|nan|timeout|killed|invalid|running" "$err"

# --- large files take the two-thread path: same results, same order ------
awk 'BEGIN {
	for (i = 1; i <= 3000; i++) {
		if (i == 700) { print "{\"schema\":\"runrec/1\",\"status\":"; continue }
		if (i == 2900) { print "{\"schema\":\"runrec/1\",\"run_id\":\"big-00001\",\"status\":\"crash\"}"; continue }
		if (i % 1000 == 0) { print ""; continue }
		printf "{\"schema\":\"runrec/1\",\"run_id\":\"big-%05d\",\"status\":\"ok\",\"parent\":%s,\"config\":{\"model.depth\":%d},\"metrics\":{\"val_bpb\":1.0}}\n", i, (i > 1 ? sprintf("\"big-%05d\"", i - 1) : "null"), 8 + i % 2
	}
}' >big.jsonl
expect_code ledger-ingest-7.1 "3000-line file with two bad lines" 1 "$LEDGER" --db big.db ingest big.jsonl
expect_eq ledger-ingest-7.2 "counts" "big.jsonl: 2995 new, 0 already present, 2 quarantined (runrec)" "$out"
expect_eq ledger-ingest-7.3 "bad lines reported in file order" \
"ledger: ingest: big.jsonl:700: invalid JSON at column 30: unexpected token near end of file
ledger: ingest: big.jsonl:2900: run_id 'big-00001' is already stored with different content (run #1)" "$err"
expect_eq ledger-ingest-7.4 "rows stored in file order" "2995|1|2999|0" \
	"$(sql big.db "SELECT count(*), min(source_line), max(source_line), (SELECT count(*) FROM runs a JOIN runs b ON b.id = a.id + 1 WHERE b.source_line <= a.source_line) FROM runs")"
expect_eq ledger-ingest-7.5 "exact changes for every child whose parent was stored (not 701, 1001, 2001, 2901)" "2990" \
	"$(sql big.db "SELECT count(*) FROM changes WHERE how = 'exact'")"

# --- no orphan rows: foreign keys go unchecked inside a file's transaction
# (store.c), so every changes, metrics and annotations row must name a stored
# run by construction; a final record replacing its running one included.
cfg=$(sql $DB "SELECT json_set(json_extract(record, '\$.config'), '\$.\"optim.matrix_lr\"', 0.07) FROM runs WHERE run_id = 'h100-a1b2c3-0001'")
printf '{"schema":"runrec/1","run_id":"fk-1","status":"running","parent":"h100-a1b2c3-0001","config":%s}\n' "$cfg" >fk1.jsonl
printf '{"schema":"runrec/1","run_id":"fk-1","status":"ok","parent":"h100-a1b2c3-0001","config":%s,"metrics":{"val_bpb":0.99,"mfu_percent":40}}\n' "$cfg" >fk2.jsonl
expect_code ledger-ingest-7.6 "a running record, then its final one" 0 sh -c \
	"\"$LEDGER\" --db $DB ingest fk1.jsonl && \"$LEDGER\" --db $DB ingest fk2.jsonl"
expect_eq ledger-ingest-7.7 "the final record replaced the running one, its rows with it" "fk-1|ok|2|1" \
	"$(sql $DB "SELECT run_id, status, (SELECT count(*) FROM metrics m WHERE m.run = r.id), (SELECT count(*) FROM changes c WHERE c.run = r.id) FROM runs r WHERE run_id = 'fk-1'")"
expect_eq ledger-ingest-7.8 "foreign_key_check finds no orphan rows (one and two threads)" "" \
	"$(sql $DB "PRAGMA foreign_key_check"; sql big.db "PRAGMA foreign_key_check")"
# --- derived run_ids match runrec_ensure_id ------------------------------
printf '{"schema":"runrec/1","status":"crash","run_id":null,"description":"no id"}\n{"schema":"runrec/1","status":"crash","description":"no id"}\n' >noid.jsonl
expect_code ledger-ingest-8.1 "run_id null and absent are the same record" 0 "$LEDGER" --db n.db ingest noid.jsonl
expect_eq ledger-ingest-8.2 "stored once" "noid.jsonl: 1 new, 1 already present, 0 quarantined (runrec)" "$out"
expect_eq ledger-ingest-8.3 "derived id is r- and the hash prefix of the record without run_id" \
	"r-$(printf '%s' '{"description":"no id","schema":"runrec/1","status":"crash"}' | sha256sum | cut -c1-16)" \
	"$(sql n.db "SELECT run_id FROM runs")"

# --- a broken pretty-printed record is one error at the line that broke ---
printf '\n{\n  "schema": "runrec/1",\n  "status": "ok"\n  "run_id": "x"\n}\n' >pretty.json
expect_code ledger-ingest-9.1 "broken pretty-printed record: quarantined once" 1 "$LEDGER" --db p.db ingest pretty.json
expect_eq ledger-ingest-9.2 "the line where parsing stopped" "ledger: ingest: pretty.json:5: invalid JSON at column 10: '}' expected near '\"run_id\"'" "$err"
expect_eq ledger-ingest-9.3 "the whole object is kept (five lines from the brace)" "5|5" "$(sql p.db "SELECT line, length(content) - length(replace(content, char(10), '')) FROM quarantine")"

# A CPU-only run (the trainer's CPU path: no GPU name, gpu_count 0, a cpu
# model) is its own hardware class "CPU", not "unknown".
printf '%s\n' '{"schema":"runrec/1","run_id":"cpu-1","status":"ok","hardware":{"cpu":"AMD EPYC 7B13","gpu_count":0},"metrics":{"val_bpb":2.3}}' \
	'{"schema":"runrec/1","run_id":"nohw-1","status":"ok","metrics":{"val_bpb":2.4}}' > cpu.jsonl
expect_code ingest-cpu-1 "CPU-only record ingests" 0 "$LEDGER" --db cpu.db ingest cpu.jsonl
expect_eq ingest-cpu-2 "CPU run tagged CPU, record without hardware unknown" \
	"cpu-1|CPU||
nohw-1|unknown||" "$(sql cpu.db "SELECT run_id, hw_class, vram_tier, gpu_name FROM runs ORDER BY id")"

# --- options that go into records must be UTF-8 ---------------------------
expect_code ingest-utf8-1 "--agent that is not UTF-8: usage error" 2 \
	"$LEDGER" --db u.db ingest cpu.jsonl --agent "$(printf 'caf\351')"
expect_eq ingest-utf8-2 "names the option" "ledger: ingest: --agent: the value is not valid UTF-8 text" "$err"

# --- progress on a terminal, nothing without one ----------------------------
awk 'BEGIN { for (i = 0; i < 3000; i++)
	printf "{\"schema\":\"runrec/1\",\"run_id\":\"p-%d\",\"status\":\"ok\",\"metrics\":{\"val_bpb\":1.%04d}}\n", i, i }' >many.jsonl
expect_code ingest-progress-1 "no terminal: exit 0" 0 "$LEDGER" --db p1.db ingest many.jsonl
expect_eq ingest-progress-2 "no terminal: stderr stays empty" "" "$err"
if command -v script >/dev/null 2>&1; then
	script -qec "\"$LEDGER\" --db p2.db ingest many.jsonl" /dev/null >tty.txt 2>&1
	expect_match ingest-progress-3 "a terminal is told the records are being written" \
		"$(tr '\r' '\n' <tty.txt)" "ledger: ingest: many.jsonl: 3000 records read; writing them to the ledger"
	expect_match ingest-progress-4 "the summary starts on a cleared line" \
		"$(tr '\r' '\n' <tty.txt)" "^$(printf '\033')\[Kmany.jsonl: 3000 new, 0 already present, 0 quarantined \(runrec\)"
else
	ok ingest-progress-3 "# SKIP script(1) not installed"
	ok ingest-progress-4 "# SKIP script(1) not installed"
fi
