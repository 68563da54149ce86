# t-ledger-ingest-lossless.sh — input that lost data without a word (issue
# 11, item 3), each through the real `ledger ingest`: a UTF-8 byte-order
# mark (results.tsv and JSONL), a duplicate results.tsv column, numbers too
# small or too large for a double (JSON and tsv), a keep row whose val_bpb
# is nan or -1, a val_bpb above the uniform bound of 8 bits per byte, and a
# huge garbage line. Each is warned or refused with file:line, and the rest
# of the file goes in.
. "$ROOT/tests/lib.sh"
need sqlite3 sqlite3
H='commit	val_bpb	memory_gb	status	description'
BOM=$(printf '\357\273\277')

# --- a byte-order mark --------------------------------------------------------
printf '%s%s\na1\t0.99\t40\tkeep\tbaseline\na2\t0.98\t40\tkeep\tdepth 8 to 9\n' "$BOM" "$H" >bom.tsv
expect_code ingest-lossless-1.1 "a results.tsv with a BOM: exit 0" 0 "$LEDGER" --db b.db ingest bom.tsv --started-at 2026-03-16T04:00:00Z
expect_eq ingest-lossless-1.2 "said once, at line 1" \
	"ledger: warning: ingest: bom.tsv:1: the file starts with a UTF-8 byte-order mark (EF BB BF); it is skipped" "$err"
expect_eq ingest-lossless-1.3 "the first column (commit) is read" "a1|a2" \
	"$(sql b.db "SELECT group_concat(code_commit, '|') FROM (SELECT code_commit FROM runs ORDER BY id)")"
printf '%sval_bpb\tstatus\n0.99\tkeep\n' "$BOM" >bom-first.tsv
expect_code ingest-lossless-1.4 "val_bpb as the first column after a BOM: read, not refused" 0 \
	"$LEDGER" --db b.db ingest bom-first.tsv --started-at 2026-03-16T04:00:00Z
expect_eq ingest-lossless-1.5 "its row is stored" "bom-first.tsv: 1 new, 0 already present, 0 quarantined (results.tsv)" "$out"
printf '%s{"schema":"runrec/1","run_id":"b-1","status":"ok","metrics":{"val_bpb":1.0}}\n{"schema":"runrec/1","run_id":"b-2","status":"ok","metrics":{"val_bpb":1.1}}\n' "$BOM" >bom.jsonl
expect_code ingest-lossless-1.6 "a JSONL with a BOM: exit 0" 0 "$LEDGER" --db b.db ingest bom.jsonl
expect_eq ingest-lossless-1.7 "both records stored, the first too" "bom.jsonl: 2 new, 0 already present, 0 quarantined (runrec)|b-1" \
	"$out|$(sql b.db "SELECT run_id FROM runs WHERE source_file = 'bom.jsonl' AND source_line = 1")"
expect_eq ingest-lossless-1.8 "one warning, no invisible character in it" \
	"ledger: warning: ingest: bom.jsonl:1: the file starts with a UTF-8 byte-order mark (EF BB BF); it is skipped" "$err"

# --- a duplicate column -------------------------------------------------------
printf 'commit\tval_bpb\tmemory_gb\tstatus\tdescription\tVAL_BPB\tgpu\tgpu_name\na1\t0.99\t40\tkeep\tbaseline\t0.5\tNVIDIA H100 80GB HBM3\tNVIDIA A100-SXM4-40GB\n' >dup.tsv
expect_code ingest-lossless-2.1 "a duplicate column: exit 0" 0 "$LEDGER" --db d.db ingest dup.tsv --started-at 2026-03-16T04:00:00Z
expect_eq ingest-lossless-2.2 "each pair named with positions, and which is read" \
"ledger: warning: ingest: dup.tsv:1: columns 2 'val_bpb' and 6 'VAL_BPB' both give metrics.val_bpb: column 2 is read, column 6 is not stored
ledger: warning: ingest: dup.tsv:1: columns 7 'gpu' and 8 'gpu_name' both give hardware.gpu_name: column 7 is read, column 8 is not stored" "$err"
expect_eq ingest-lossless-2.3 "the first column's values are stored" "0.99|H100" "$(sql d.db "SELECT val_bpb, hw_class FROM runs")"

# --- numbers too small (or too large) for a double ----------------------------
printf '{"schema":"runrec/1","run_id":"u-1","status":"ok","metrics":{"val_bpb":0.99,"grad_min":1e-400,"z":0.0,"tiny":4e-320},"config":{"optim.eps":-5e-330}}\n{"schema":"runrec/1","run_id":"u-2","status":"ok","description":"eps 1e-400 in a string","metrics":{"val_bpb":1e-5000}}\n' >u.jsonl
expect_code ingest-lossless-3.1 "underflowing numbers in records: exit 0" 0 "$LEDGER" --db u.db ingest u.jsonl
expect_eq ingest-lossless-3.2 "each named with file:line, field and text" \
"ledger: warning: ingest: u.jsonl:1: 'metrics.grad_min' ('1e-400'), 'config.optim.eps' ('-5e-330') are too small for a double and would read as 0; stored as null (not measured)
ledger: warning: ingest: u.jsonl:2: 'metrics.val_bpb' ('1e-5000') is too small for a double and would read as 0; stored as null (not measured)" "$err"
expect_eq ingest-lossless-3.3 "stored as null, never 0; a real 0.0, a subnormal and a string stay" \
	"null|null|0.0|1|0.99|null||eps 1e-400 in a string" \
	"$(sql u.db "SELECT json_type(record, '\$.metrics.grad_min'), json_type(record, '\$.config.\"optim.eps\"'), json_extract(record, '\$.metrics.z'), json_extract(record, '\$.metrics.tiny') > 0, val_bpb FROM runs WHERE run_id = 'u-1'")|$(sql u.db "SELECT json_type(record, '\$.metrics.val_bpb'), val_bpb, description FROM runs WHERE run_id = 'u-2'")"
printf '%s\tmfu\na1\t0.99\t1e999\tkeep\tbaseline\t1e-400\na2\t0.98\t40\tkeep\tx\t41.5\n' "$H" >u.tsv
expect_code ingest-lossless-3.4 "underflow and overflow in tsv cells: exit 0" 0 "$LEDGER" --db u.db ingest u.tsv --started-at 2026-03-16T04:00:00Z
expect_eq ingest-lossless-3.5 "each cell named with file:line and column" \
"ledger: warning: ingest: u.tsv:2: column 'memory_gb': '1e999' is too large for a double (it would read as inf); stored as null
ledger: warning: ingest: u.tsv:2: column 'mfu_percent': '1e-400' is too small for a double (it would read as 0); stored as null" "$err"
expect_eq ingest-lossless-3.6 "null under the key; the next row's value is read" "null|null|41.5" \
	"$(sql u.db "SELECT json_type(record, '\$.metrics.peak_vram_mb'), json_type(record, '\$.metrics.mfu_percent') FROM runs WHERE code_commit = 'a1'")|$(sql u.db "SELECT json_extract(record, '\$.metrics.mfu_percent') FROM runs WHERE code_commit = 'a2'")"

# --- keep rows without a measurement ----------------------------------------
printf '%s\na1\t0.99\t40\tkeep\tbaseline\na2\tnan\t40\tkeep\tdepth 8 to 9\na3\t-1\t40\tkeep\tdepth 9 to 10\na4\t0.97\t40\tdiscard\tlr 0.04 to 0.05\n' "$H" >k.tsv
expect_code ingest-lossless-4.1 "keep rows with val_bpb nan and -1: exit 0" 0 "$LEDGER" --db k.db ingest k.tsv --started-at 2026-03-16T04:00:00Z
expect_eq ingest-lossless-4.2 "each warned with file:line" \
"ledger: warning: ingest: k.tsv:3: a keep row with val_bpb 'nan' has no valid measurement: stored with status nan (decision keep)
ledger: warning: ingest: k.tsv:4: a keep row with val_bpb '-1' has no valid measurement: stored with status invalid (decision keep)" "$err"
expect_eq ingest-lossless-4.3 "not valid measurements; the decision and the parent chain stay" \
"a1|ok|baseline|0.99|
a2|nan|keep||a1
a3|invalid|keep||a2
a4|ok|discard|0.97|a3" \
	"$(sql k.db "SELECT r.code_commit, r.status, r.decision, r.val_bpb, p.code_commit FROM runs r LEFT JOIN runs p ON p.run_id = r.parent ORDER BY r.id")"
expect_eq ingest-lossless-4.4 "the record says why" "results.tsv says keep with val_bpb '-1', which is no measurement" \
	"$(sql k.db "SELECT json_extract(record, '\$.failure.message') FROM runs WHERE code_commit = 'a3'")"

# --- above the uniform bound: diverged ----------------------------------------
printf '%s\na1\t0.99\t40\tkeep\tbaseline\na2\t9.5\t40\tkeep\tlr 0.04 to 0.4\na3\t8.0\t40\tdiscard\tlr 0.04 to 0.3\n' "$H" >div.tsv
printf '{"schema":"runrec/1","run_id":"v-1","status":"ok","hardware":{"gpu_name":"NVIDIA H100 80GB HBM3"},"finished_at":"2026-03-16T05:00:00Z","metrics":{"val_bpb":12.25}}\n' >div.jsonl
expect_code ingest-lossless-5.1 "val_bpb above 8: exit 0" 0 "$LEDGER" --db v.db ingest div.tsv --started-at 2026-03-16T04:00:00Z --hardware "NVIDIA H100 80GB HBM3"
expect_eq ingest-lossless-5.2 "warned with file:line" \
"ledger: warning: ingest: div.tsv:3: val_bpb 9.5 is above 8 bits per byte, worse than a uniform guess over the 256 byte values: the run is taken as diverged, not as a measurement (it enters no frontier; the record keeps the value)
ledger: hint: 'ledger show' marks such runs with ledger.val_bpb_diverged" "$err"
"$LEDGER" --db v.db ingest div.jsonl >/dev/null 2>div.err
expect_match ingest-lossless-5.3 "a run record too" "$(cat div.err)" "^ledger: warning: ingest: div.jsonl:1: val_bpb 12.25 is above 8 bits"
expect_eq ingest-lossless-5.4 "status stays ok, the record keeps the value, the column is NULL; 8.0 itself is a measurement" \
"a1|ok|0.99|0.99
a2|ok|9.5|
a3|ok|8.0|8.0
|ok|12.25|" "$(sql v.db "SELECT code_commit, status, json_extract(record, '\$.metrics.val_bpb'), val_bpb FROM runs ORDER BY id")"
expect_code ingest-lossless-5.5 "frontier runs" 0 "$LEDGER" --db v.db --format tsv frontier
expect_no_match ingest-lossless-5.6 "no diverged run on the frontier" "$out" "9\.5|12\.25"
expect_code ingest-lossless-5.7 "show runs" 0 "$LEDGER" --db v.db show v-1
expect_match ingest-lossless-5.8 "show says why" "$out" \
	"^ledger\.val_bpb_diverged +12\.25 is above 8 bits per byte \(a uniform guess over bytes\): diverged, not a measurement$"

# --- a huge garbage line --------------------------------------------------------
{
	echo '{"schema":"runrec/1","run_id":"g-1","status":"ok"}'
	head -c 8388608 /dev/zero | tr '\0' x; echo
	printf '{"a":"'; head -c 8388608 /dev/zero | tr '\0' y; echo
	echo '{"schema":"runrec/1","run_id":"g-2","status":"crash"}'
} >garbage.jsonl
expect_code ingest-lossless-6.1 "garbage lines: exit 1 (quarantined)" 1 "$LEDGER" --db g.db ingest garbage.jsonl
expect_eq ingest-lossless-6.2 "named by line, start and length, not by a column in the millions" \
"ledger: ingest: garbage.jsonl:2: not JSON (starts with 'xxxxxxxxxxxxxxxxxxxxxxxx…', 8388608 bytes)
ledger: ingest: garbage.jsonl:3: invalid JSON: the text ends inside a value (premature end of input) (8388614 bytes, starts with '{\"a\":\"yyyyyyyyyyyyyyyyyy…')" "$err"
expect_eq ingest-lossless-6.3 "the records around them are stored" "g-1|g-2" \
	"$(sql g.db "SELECT group_concat(run_id, '|') FROM (SELECT run_id FROM runs ORDER BY id)")"
printf '{"schema":"runrec/1","status":"ok"}\n\033[2Jnot json\n' >esc.jsonl
"$LEDGER" --db g.db ingest esc.jsonl >/dev/null 2>esc.err
expect_eq ingest-lossless-6.4 "a short excerpt is escaped" \
	"ledger: ingest: esc.jsonl:2: not JSON (starts with '\\x1b[2Jnot json', 12 bytes)" "$(cat esc.err)"
awk 'BEGIN { for (i = 1; i <= 3000; i++)
	printf "{\"schema\":\"runrec/1\",\"run_id\":\"w-%d\",\"status\":\"ok\",\"metrics\":{\"val_bpb\":1.%04d,\"eps\":%s}}\n", i, i, i == 1500 || i == 2900 ? "1e-400" : "1e-8" }' >wide.jsonl
expect_code ingest-lossless-3.7 "the two-thread path (3,000 lines): exit 0" 0 "$LEDGER" --db w.db ingest wide.jsonl
expect_eq ingest-lossless-3.8 "warned in order, at their lines" \
"ledger: warning: ingest: wide.jsonl:1500: 'metrics.eps' ('1e-400') is too small for a double and would read as 0; stored as null (not measured)
ledger: warning: ingest: wide.jsonl:2900: 'metrics.eps' ('1e-400') is too small for a double and would read as 0; stored as null (not measured)" "$err"
expect_eq ingest-lossless-3.9 "two nulls, no zero" "2|0" \
	"$(sql w.db "SELECT sum(json_type(record, '\$.metrics.eps') = 'null'), sum(json_extract(record, '\$.metrics.eps') = 0) FROM runs")"
printf '{"agent_id":"a","commit":"c1","status":"keep","val_bpb":1e-400,"loss_min":1e-999,"description":"d"}\n' >u-arh.json
expect_code ingest-lossless-3.10 "autoresearch@home JSON: exit 0" 0 "$LEDGER" --db w.db ingest u-arh.json
expect_eq ingest-lossless-3.11 "warned; stored as null, no measurement" \
	"ledger: warning: ingest: u-arh.json:1: 'val_bpb' ('1e-400'), 'loss_min' ('1e-999') are too small for a double and would read as 0; stored as null (not measured)|null|" \
	"$err|$(sql w.db "SELECT json_type(record, '\$.metrics.loss_min'), val_bpb FROM runs WHERE agent = 'a'")"
