# t-ledger-ingest-tsv-ident.sh — a results.tsv row keeps its run id when
# the file is edited or grows (ledger/ingest_tsv_ident.c).
# Test plan: a session whose first row failed (so it is the parent of the
# rows after it) is ingested, then the file is ingested again after each
# of: the first row's status edited (crash -> oom), the first row measured
# in place (crash -> keep), a later crash edited to a discard, rows
# appended, a crashed commit rerun with the same description; every time
# the run ids of the rows already there are the same and nothing is
# stored twice. Then what must stay apart: another session whose file
# starts with the same commit and description, and the second of two
# identical crash rows edited. Last, ledgers older builds wrote ((OOM) rows
# under the id of their oom content, a failed first row among them) take
# the file without new runs.
. "$ROOT/tests/lib.sh"
need sqlite3 sqlite3
need jq jq

ids() { sql "$1" "SELECT group_concat(run_id, ' ') FROM (SELECT run_id FROM runs ORDER BY id)"; }
rows() { sql "$1" "SELECT group_concat(status || '/' || coalesce(decision, '-') || '/' || coalesce(val_bpb, '-'), ' ')
	FROM (SELECT * FROM runs ORDER BY id)"; }
head_line='commit\tval_bpb\tmemory_gb\tstatus\tdescription\n'
{
	printf "$head_line"
	printf 'a000001\t0.000000\t0.0\tcrash\tbaseline (no changes) killed with exit 137\n'
	printf 'a000002\t0.998000\t44.0\tkeep\tbaseline with device batch 16\n'
	printf 'a000003\t0.000000\t0.0\tcrash\tdepth 8 to 12\n'
	printf 'a000004\t0.997000\t44.0\tkeep\tmatrix lr 0.04 to 0.05\n'
	printf 'a000005\t0.999000\t44.0\tdiscard\twarmdown 0.5 to 0.3\n'
} >results.tsv
"$LEDGER" --db s.db ingest results.tsv >/dev/null 2>&1
first=$(ids s.db)
expect_eq tsv-ident-1.1 "five rows, the failed first one the parent of the next" \
	"5|$(sql s.db "SELECT run_id FROM runs WHERE id = 1")" \
	"$(sql s.db "SELECT count(*) FROM runs")|$(sql s.db "SELECT parent FROM runs WHERE id = 2")"

# 2: the first row's status edited: before, every row was stored again
sed -i 's/\tcrash\tbaseline (no/\toom\tbaseline (no/' results.tsv
expect_code tsv-ident-2.1 "first row crash -> oom: exit 0" 0 "$LEDGER" --db s.db ingest results.tsv
expect_eq tsv-ident-2.2 "... nothing new" "results.tsv: 0 new, 4 already present, 0 quarantined, 1 updated in place (results.tsv)" "$out"
expect_eq tsv-ident-2.3 "... every run keeps its id" "$first" "$(ids s.db)"
expect_eq tsv-ident-2.4 "... the first run has the status the file says now" \
	"oom/-/- ok/keep/0.998 crash/-/- ok/keep/0.997 ok/discard/0.999" "$(rows s.db)"
expect_match tsv-ident-2.5 "... and the edit is said, with file:line and the run" "$err" \
	"^ledger: ingest: results.tsv:2: this row was stored as run $(sql s.db "SELECT run_id FROM runs WHERE id = 1") with status crash; it now says status oom: the run is updated in place and keeps its id$"
expect_code tsv-ident-2.6 "again: exit 0" 0 "$LEDGER" --db s.db ingest results.tsv
expect_eq tsv-ident-2.7 "... nothing new, nothing said" "results.tsv: 0 new, 5 already present, 0 quarantined (results.tsv)|" \
	"$out|$(printf '%s\n' "$err" | grep -v 'no time\|hint')"

# 3: the first row measured in place, a later crash turned into a discard
sed -i 's/^a000001\t0.000000\t0.0\toom/a000001\t1.002000\t44.0\tkeep/; s/^a000003\t0.000000\t0.0\tcrash/a000003\t0.999500\t44.0\tdiscard/' results.tsv
expect_code tsv-ident-3.1 "crash -> keep (the first row), crash -> discard: exit 0" 0 "$LEDGER" --db s.db ingest results.tsv
expect_eq tsv-ident-3.2 "... nothing new, the same ids" "results.tsv: 0 new, 3 already present, 0 quarantined, 2 updated in place (results.tsv)|$first" "$out|$(ids s.db)"
expect_eq tsv-ident-3.3 "... the first row is the baseline now, the crash a discard with its value" \
	"ok/baseline/1.002 ok/keep/0.998 ok/discard/0.9995 ok/keep/0.997 ok/discard/0.999" "$(rows s.db)"
expect_eq tsv-ident-3.4 "... their metrics rows follow the record" "1.002|45056.0" \
	"$(sql s.db "SELECT group_concat(value, '|') FROM (SELECT value FROM metrics WHERE run = 1 AND name IN ('val_bpb', 'peak_vram_mb') ORDER BY name DESC)")"

# 4: rows appended, one of them the crashed commit run again
printf 'a000003\t0.000000\t0.0\tcrash\tdepth 8 to 12\n' >>results.tsv
printf 'a000006\t0.996000\t44.0\tkeep\tembedding lr 0.6 to 0.8\n' >>results.tsv
expect_code tsv-ident-4.1 "two rows appended: exit 0" 0 "$LEDGER" --db s.db ingest results.tsv
expect_eq tsv-ident-4.2 "... two new runs" "results.tsv: 2 new, 5 already present, 0 quarantined (results.tsv)" "$out"
expect_eq tsv-ident-4.3 "... the earlier ids unchanged" "$first" "$(ids s.db | cut -d' ' -f1-5)"
expect_eq tsv-ident-4.4 "... the rerun of a000003 is a run of its own, the earlier one stays a discard" \
	"ok/discard/0.9995|crash/-/-" \
	"$(sql s.db "SELECT group_concat(status || '/' || coalesce(decision, '-') || '/' || coalesce(val_bpb, '-'), '|') FROM (SELECT * FROM runs WHERE code_commit = 'a000003' ORDER BY id)")"

# 5: another session's file under the same name, starting with the same
# commit and description (autoresearch's baseline is master's commit):
# its first row is its own run, and the first session's stays as it is
mkdir other
{
	printf "$head_line"
	printf 'a000001\t1.010000\t44.0\tkeep\tbaseline (no changes) killed with exit 137\n'
	printf 'b000002\t1.000000\t44.0\tkeep\tdepth 8 to 10\n'
} >other/results.tsv
(cd other && "$LEDGER" --db ../s.db ingest results.tsv >../stdout.txt 2>../stderr.txt)
expect_eq tsv-ident-5.1 "another session: two new runs" "results.tsv: 2 new, 0 already present, 0 quarantined (results.tsv)" "$(cat stdout.txt)"
expect_eq tsv-ident-5.2 "... the first session's first run untouched" "ok/baseline/1.002" \
	"$(sql s.db "SELECT status || '/' || decision || '/' || val_bpb FROM runs WHERE id = 1")"
expect_eq tsv-ident-5.3 "... and the new file's second row is a child of its own first" \
	"$(sql s.db "SELECT run_id FROM runs WHERE id = 8")" "$(sql s.db "SELECT parent FROM runs WHERE id = 9")"

# 6: two identical crash rows after the same keep (occurrence 1 and 2);
# the second edited: it is that run, the first stays a crash
{
	printf "$head_line"
	printf 'c000001\t1.000000\t44.0\tkeep\tbaseline\n'
	printf 'c000002\t0.000000\t0.0\tcrash\twindow pattern SSSL\n'
	printf 'c000002\t0.000000\t0.0\tcrash\twindow pattern SSSL\n'
} >twice.tsv
"$LEDGER" --db t.db ingest twice.tsv >/dev/null 2>&1
before=$(ids t.db)
sed -i '4s/0.000000\t0.0\tcrash/0.990000\t44.0\tdiscard/' twice.tsv
expect_code tsv-ident-6.1 "the second of two identical crashes edited: exit 0" 0 "$LEDGER" --db t.db ingest twice.tsv
expect_eq tsv-ident-6.2 "... nothing new, the same ids, the second one a discard now" \
	"twice.tsv: 0 new, 2 already present, 0 quarantined, 1 updated in place (results.tsv)|$before|ok/baseline/1.0 crash/-/- ok/discard/0.99" \
	"$out|$(ids t.db)|$(rows t.db)"

# 7: ledgers older builds wrote. Between bc5180e and 9e76c0d a crash row
# whose description names the failure was stored under the id of its
# content with that status (oom), not of the row as written (crash); one
# such row first in the file was the parent of the rows after it. The
# older ledger is made from this build's records as that build formed
# them: no run_id (derived from the content as it was), the children's
# parent the first row's older id, stored as rows of old.tsv.
{
	printf "$head_line"
	printf 'd000001\t0.000000\t0.0\tcrash\tbaseline at depth 16 (OOM)\n'
	printf 'd000002\t1.100000\t40.0\tkeep\tdepth 12\n'
	printf 'd000003\t0.000000\t0.0\tcrash\tdepth 14 (OOM)\n'
	printf 'd000004\t1.050000\t40.0\tdiscard\tdepth 10\n'
} >old.tsv
"$LEDGER" --db now.db ingest old.tsv >/dev/null 2>&1
# each record in turn, its parent the older id of its parent
: >map.txt
for i in 1 2 3 4; do
	now_id=$(sql now.db "SELECT run_id FROM runs WHERE id = $i")
	now_parent=$(sql now.db "SELECT coalesce(parent, '') FROM runs WHERE id = $i")
	old_parent=$(awk -v p="$now_parent" '$1 == p { print $2 }' map.txt)
	sql now.db "SELECT record FROM runs WHERE id = $i" |
		jq -c --arg p "$old_parent" 'del(.run_id) | if $p == "" then . else .parent = $p end' >one.jsonl
	"$LEDGER" --db older.db ingest one.jsonl >/dev/null 2>&1
	echo "$now_id $(sql older.db "SELECT run_id FROM runs WHERE id = $i")" >>map.txt
done
sql older.db "UPDATE runs SET source_format = 'results.tsv', source_file = 'old.tsv', source_line = id + 1"
older=$(ids older.db)
expect_eq tsv-ident-7.1 "the older ledger: 4 runs under other ids than this build's" "4|0" \
	"$(sql older.db "SELECT count(*) FROM runs")|$(sql older.db "ATTACH 'now.db' AS n; SELECT count(*) FROM runs r JOIN n.runs m ON m.run_id = r.run_id")"
expect_code tsv-ident-7.2 "the same file into it: exit 0" 0 "$LEDGER" --db older.db ingest old.tsv
expect_eq tsv-ident-7.3 "... nothing new, nothing said, the ids it had" \
	"old.tsv: 0 new, 0 already present, 0 quarantined, 4 updated in place (results.tsv)||$older" \
	"$out|$(printf '%s\n' "$err" | grep -v 'no time\|hint')|$(ids older.db)"
expect_eq tsv-ident-7.4 "... the statuses a fresh ingest gives" "$(rows now.db)" "$(rows older.db)"
expect_code tsv-ident-7.5 "and again: exit 0" 0 "$LEDGER" --db older.db ingest old.tsv
expect_eq tsv-ident-7.6 "... 0 new, 4 already present" "old.tsv: 0 new, 4 already present, 0 quarantined (results.tsv)" "$out"

# 8: a real session (tests/fixtures/real/README.md) as its agent wrote it:
# first its first 60 rows, then all 115, then its first crash edited (the
# agent, or its user, naming the failure), then that crash measured
V="$FIXTURES/real/venkateshwar-m4-codex-results.tsv"
head -n 61 "$V" >results.tsv
"$LEDGER" --db v.db ingest results.tsv --hardware "Apple M4" >/dev/null 2>&1
early=$(ids v.db)
cp "$V" results.tsv
expect_code tsv-ident-8.1 "venkateshwar: the rest of the session appended: exit 0" 0 "$LEDGER" --db v.db ingest results.tsv --hardware "Apple M4"
expect_eq tsv-ident-8.2 "... the 55 rows after the first 60 are new, the 60 keep their ids" \
	"results.tsv: 55 new, 60 already present, 0 quarantined (results.tsv)|$early" "$out|$(ids v.db | cut -d' ' -f1-60)"
all=$(ids v.db)
sed -i 's/^5f9e3ee\t0.000000\t0.0\tcrash\t/5f9e3ee\t0.000000\t0.0\toom\t/' results.tsv
expect_code tsv-ident-8.3 "... its first crash edited to oom: exit 0" 0 "$LEDGER" --db v.db ingest results.tsv --hardware "Apple M4"
expect_eq tsv-ident-8.4 "... nothing new, every id kept, the run is oom" \
	"results.tsv: 0 new, 114 already present, 0 quarantined, 1 updated in place (results.tsv)|$all|oom" \
	"$out|$(ids v.db)|$(sql v.db "SELECT status FROM runs WHERE code_commit = '5f9e3ee'")"
"$LEDGER" --db fresh.db ingest results.tsv --hardware "Apple M4" >/dev/null 2>&1
expect_eq tsv-ident-8.5 "... and the statuses and values a fresh ledger of the edited file holds" \
	"$(rows fresh.db)" "$(rows v.db)"

# 9: the defect's own shape, on a real session: anaclumos-pgolf's first row
# is "Baseline (no changes) killed with exit 137", the parent of the three
# crashes and the first keep after it, so of every row after them. Its
# status edited (the kill was the OOM killer): nothing is stored again
G="$FIXTURES/real/anaclumos-pgolf-results.tsv"
cp "$G" results.tsv
"$LEDGER" --db g.db ingest results.tsv >/dev/null 2>&1
before=$(ids g.db)
expect_eq tsv-ident-9.1 "anaclumos: 25 runs (its size_violation row measured, not admissible), the failed first row the parent of rows 2-5" "25|4" \
	"$(sql g.db "SELECT count(*) FROM runs")|$(sql g.db "SELECT count(*) FROM runs WHERE parent = (SELECT run_id FROM runs WHERE id = 1)")"
sed -i '2s/\tcrash\tBaseline/\toom\tBaseline/' results.tsv
expect_code tsv-ident-9.2 "... its first row crash -> oom: exit 0" 0 "$LEDGER" --db g.db ingest results.tsv
expect_eq tsv-ident-9.3 "... 0 new, 25 already present, every id kept, the first run oom" \
	"results.tsv: 0 new, 24 already present, 0 quarantined, 1 updated in place (results.tsv)|$before|oom" \
	"$out|$(ids g.db)|$(sql g.db "SELECT status FROM runs WHERE id = 1")"

# 10: wider edits of a session are the same experiments: the same commit at
# the same line keeps its id when its description is corrected, and when a
# keep before it is edited to a discard (every row after it changes parent)
# or back. Before, each such row was stored again beside the old run.
parents() { sql "$1" "SELECT group_concat(r.code_commit || '<' || coalesce(p.code_commit, '-'), ' ')
	FROM (SELECT * FROM runs ORDER BY id) r LEFT JOIN runs p ON p.run_id = r.parent"; }
{
	printf "$head_line"
	printf 'e000001\t1.000000\t44.0\tkeep\tbaseline\n'
	printf 'e000002\t0.990000\t44.0\tkeep\tdepth 8 to 9\n'
	printf 'e000003\t0.995000\t44.0\tdiscard\tmatrix lr 0.04 to 0.05\n'
	printf 'e000004\t0.985000\t44.0\tkeep\twarmdown 0.5 to 0.3\n'
	printf 'e000005\t0.986000\t44.0\tdiscard\twindow pattern SSSL\n'
} >wide.tsv
"$LEDGER" --db w.db ingest wide.tsv >/dev/null 2>&1
wide=$(ids w.db)
sed -i 's/matrix lr 0.04 to 0.05/matrix lr 0.04 to 0.06/' wide.tsv
expect_code tsv-ident-10.1 "a description corrected: exit 0" 0 "$LEDGER" --db w.db ingest wide.tsv
expect_eq tsv-ident-10.2 "... nothing new, the same ids, its change read from the new words" \
	"wide.tsv: 0 new, 4 already present, 0 quarantined, 1 updated in place (results.tsv)|$wide|optim.matrix_lr 0.04 -> 0.06" \
	"$out|$(ids w.db)|$(sql w.db "SELECT var || ' ' || old || ' -> ' || new FROM changes WHERE run = 3")"
expect_match tsv-ident-10.3 "... and what it superseded is said" "$err" \
	"^ledger: ingest: wide.tsv:4: this row was stored as run $(sql w.db "SELECT run_id FROM runs WHERE id = 3"); its description was 'matrix lr 0.04 to 0.05', now 'matrix lr 0.04 to 0.06': the run is updated in place and keeps its id$"
sed -i '3s/\tkeep\t/\tdiscard\t/' wide.tsv
expect_code tsv-ident-10.4 "a keep edited to a discard: exit 0" 0 "$LEDGER" --db w.db ingest wide.tsv
expect_eq tsv-ident-10.5 "... nothing new, the same ids, the rows after it children of the baseline" \
	"wide.tsv: 0 new, 2 already present, 0 quarantined, 3 updated in place (results.tsv)|$wide|e000001<- e000002<e000001 e000003<e000001 e000004<e000001 e000005<e000004" \
	"$out|$(ids w.db)|$(parents w.db)"
expect_eq tsv-ident-10.6 "... the new parent said for each of the two rows up to the next keep" "2" \
	"$(printf '%s\n' "$err" | grep -c "; its parent was '$(sql w.db "SELECT run_id FROM runs WHERE id = 2")', now '$(sql w.db "SELECT run_id FROM runs WHERE id = 1")': the run is updated")"
# e000005 is present as it reads, but its parent's key moved: keyed again
expect_eq tsv-ident-10.6k "... every change and repeat key as ledger reinfer forms them (0 changes, 0 keys to redo)" \
	"0	0" "$("$LEDGER" --db w.db reinfer --dry-run --format tsv | tail -n +2 | cut -f3,4)"
"$LEDGER" --db wfresh.db ingest wide.tsv >/dev/null 2>&1
expect_eq tsv-ident-10.7 "... the statuses and parents a fresh ledger of the edited file holds" \
	"$(rows wfresh.db)|$(parents wfresh.db)" "$(rows w.db)|$(parents w.db)"
sed -i '3s/\tdiscard\t/\tkeep\t/' wide.tsv
expect_code tsv-ident-10.8 "and back to a keep: exit 0" 0 "$LEDGER" --db w.db ingest wide.tsv
expect_eq tsv-ident-10.9 "... the same ids, the parents as first ingested" \
	"wide.tsv: 0 new, 2 already present, 0 quarantined, 3 updated in place (results.tsv)|$wide|e000001<- e000002<e000001 e000003<e000002 e000004<e000002 e000005<e000004" \
	"$out|$(ids w.db)|$(parents w.db)"
# another commit in a row's place is another experiment: a new run, the old one kept
sed -i 's/^e000005\t/f000005\t/' wide.tsv
"$LEDGER" --db w.db ingest wide.tsv >/dev/null 2>&1
expect_eq tsv-ident-10.10 "another commit at the same line: a new run" "6|$wide" \
	"$(sql w.db "SELECT count(*) FROM runs")|$(ids w.db | cut -d' ' -f1-5)"
# the first row's words corrected: it is that run when the row after it
# is stored below it (as for any edit of a first row)
sed -i '2s/\tbaseline$/\tbaseline (depth 8)/' wide.tsv
expect_code tsv-ident-10.11 "the first row's description corrected: exit 0" 0 "$LEDGER" --db w.db ingest wide.tsv
expect_eq tsv-ident-10.12 "... nothing new, the first run keeps its id and has the new words" \
	"wide.tsv: 0 new, 4 already present, 0 quarantined, 1 updated in place (results.tsv)|$(printf '%s' "$wide" | cut -d' ' -f1)|baseline (depth 8)" \
	"$out|$(ids w.db | cut -d' ' -f1)|$(sql w.db "SELECT description FROM runs WHERE id = 1")"
