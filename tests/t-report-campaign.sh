# t-report-campaign.sh — `report campaign` on the fixture's RTX 3090
# campaign (modelled on the seed campaign report: never beat its baseline,
# changed variables out of scope and together, compile modes unresolved).
# Test plan: numbers against jq over the fixture; sections present with the
# audit's findings; the progress chart drawn from data files whose labels
# cannot reach the gnuplot script.
. "$ROOT/tests/lib.sh"
need jq jq
F="$FIXTURES/report/runs.jsonl"
C=compile-kernel-efficiency
"$LEDGER" --db l.db ingest "$F" >/dev/null 2>&1
# one more kept run whose description tries to break out of a gnuplot data line
jq -c 'select(.run_id == "rtx-fused") | .run_id = "rtx-evil" | .decision = "keep" | .finished_at = "2026-03-16T20:00:00Z"
	| .metrics.val_bpb = 1.2401 | .description = "q\\ \"x\\\" then\nset output \"pwned.svg\"; system(\"touch pwned\")"' "$F" >evil.jsonl
"$LEDGER" --db l.db ingest evil.jsonl >/dev/null 2>&1
printf '{"name":"%s","metric":"val_bpb","direction":"min","hardware":"RTX 3090","baseline":"rtx-base","search_space":["impl.*"],"record_budget":10}\n' $C >camp.json
"$LEDGER" --db l.db campaign add camp.json >/dev/null 2>&1
gp=$(command -v "${RUNLEDGER_GNUPLOT:-gnuplot}")
expect_code report-campaign-1 "campaign report renders (exit 1 when the chart is skipped)" $([ -n "$gp" ] && echo 0 || echo 1) "$REPORT" --db l.db campaign --campaign $C --out out
# Run ids link to their pages ([rtx-base](runs/rtx-base.md)); read here as
# their labels (t-report-runpage.sh checks the links).
unlink() { sed 's/\[\([^]]*\)\](runs\/[^)]*\.md)/\1/g' "$1"; }
md=$(unlink out/campaign-$C.md)
all=$(cat "$F" evil.jsonl)
n=$(printf '%s\n' "$all" | jq -r "select(.campaign == \"$C\") | .run_id" | wc -l)
expect_match report-campaign-2 "records against the budget" "$md" "^- Records: $n of a budget of 10 "
base=$(printf '%s\n' "$all" | jq -r 'select(.run_id == "rtx-base") | .metrics.val_bpb')
expect_match report-campaign-3 "baseline" "$md" "^- Baseline: rtx-base at \*\*$(printf '%.4f' "$base")\*\*$"
best=$(printf '%s\n' "$all" | jq -rs "map(select(.campaign == \"$C\" and .status == \"ok\")) | min_by(.metrics.val_bpb) | \"\(.run_id) \(.metrics.val_bpb)\"")
gain=$(awk -v b="$base" -v x="${best#* }" 'BEGIN { printf "%.4f", b - x }')
# the extra run repeats rtx-fused's config, so the two repeat groups set the
# noise floor: twice the pooled sd (sum of squares over sum of n - 1)
floor=$(printf '%s\n' "$all" | jq -r 'select(.run_id | test("^rtx-(d9|d9b|fused|evil)$")) | "\(.config | tostring) \(.metrics.val_bpb)"' |
	awk '{ v[$1] = v[$1] " " $2; n[$1]++ } END { for (k in v) { split(v[k], x, " "); m = 0; for (i in x) m += x[i]; m /= n[k];
		for (i in x) ss += (x[i] - m) ^ 2; df += n[k] - 1 } printf "%.4f", 2 * sqrt(ss / df) }')
expect_match report-campaign-4 "noise floor from the repeat groups" "$md" "^- Noise floor: $floor \(from repeats\)$"
expect_match report-campaign-4.1 "best run beat the baseline, but within the noise floor" "$md" \
	"^\*\*Something beat the baseline\*\*: ${best% *} by $gain, which is within the noise floor: repeat it before believing it\.$"
expect_eq report-campaign-5 "one runs-table row per run" "$n" "$(printf '%s\n' "$md" | grep -c '^| [0-9]* | 2026-')"
expect_match report-campaign-5.1 "vs baseline column" "$md" \
	"^\| 7 \| 2026-03-16 19:00 \| rtx-fused \| ok \| discard \| 1\.2460 \| $(awk -v b="$base" 'BEGIN { printf "%.4f", 1.2460 - b }') \|"
expect_match report-campaign-6 "impl.compile: two attempts, none valid" "$md" \
	'^\| impl\.compile \| yes \| 2 \| 0 \| 2 \| max-autotune-no-cudagraphs, reduce-overhead \| invalid, crash \|  \|$'
expect_match report-campaign-6.1 "model.depth is out of scope, repeated" "$md" '^\| model\.depth \| no \| 2 \| 2 \| 2 \| 9 \| 1\.3133, 1\.3135 \| 0\.0676 \|$'
expect_match report-campaign-6.2 "confounded change marked" "$md" '1\.3552 \(with others\)'
for k in budget out_of_scope confounded unresolved noise_floor; do
	expect_match "report-campaign-7.$k" "audit finding $k" "$md" "^- \*\*(warn|info)\*\* $k: "
done
expect_eq report-campaign-7.1 "findings: as many as ledger audit gives" \
	"$("$LEDGER" --db l.db audit --campaign $C --format tsv 2>/dev/null | tail -n +2 | wc -l)" \
	"$(printf '%s\n' "$md" | grep -c '^- \*\*\(warn\|info\)\*\* ')"
# config keys of the members, in scope (impl.*), minus the variables some member changed
untested=$(printf '%s\n' "$all" | jq -r "select(.campaign == \"$C\") | .config | keys[]" | grep '^impl\.' | sort -u |
	grep -vxF -e impl.compile -e impl.recompute -e impl.fused_adamw | paste -sd, | sed 's/,/, /g')
expect_match report-campaign-8 "what to test next: in-scope variables never changed" "$md" \
	"^In-scope variables of the runs' configurations that no run has changed yet: $untested\.$"
expect_match report-campaign-8.1 "search-space coverage row" "$md" '^\| impl\.\\\* \| 5 \| 2 \| impl\.fused\\_adamw \|$'

# -- progress chart: drawn, labels only in data files
if [ -n "$gp" ]; then
	s=out/charts/campaign-$C-progress
	[ -s $s.svg ] && [ -s $s.png ] && ok report-campaign-9 "progress chart svg and png" || not_ok report-campaign-9 "progress chart svg and png" "$(ls out/charts)"
	expect_match report-campaign-9.1 "markdown embeds the svg" "$md" "^!\[Campaign progress.*\]\(charts/campaign-$C-progress\.svg\)$"
	expect_eq report-campaign-9.2 "kept runs carry labels: quotes, newlines and backslashes neutralised" \
		"\"RTX 3090 baseline\"
\"q\\\\ 'x\\\\' then set output 'pwned.svg'; sys...\"" "$(awk -F'\t' 'NR > 1 && $3 == 1 { print $4 }' $s-runs-0.dat)"
	expect_no_match report-campaign-9.3 "no run text in the gnuplot script" "$(cat $s.gp)" 'pwned|baseline'
	[ ! -e out/charts/pwned ] && [ ! -e out/charts/pwned.svg ] && [ ! -e pwned ] && ok report-campaign-9.4 "nothing ran from the label" ||
		not_ok report-campaign-9.4 "nothing ran from the label"
	expect_match report-campaign-9.5 "svg shows the label as written (one backslash each)" "$(cat $s.svg)" ">q\\\\ 'x\\\\' then set output 'pwned.svg'; sys\.\.\.<"
else
	ok report-campaign-9 "# SKIP gnuplot not installed"
fi
expect_match report-campaign-10 "index links the campaign" "$(cat out/index.html)" "<a href=\"campaign-$C.html\">$C</a>"
# -- the open questions, recomputed from the fixture: in-scope variables whose
#    runs never gave a value, and those with values only next to other changes
expect_match report-campaign-11 "attempted, never validly measured" "$md" \
	'^Attempted but never validly measured — fix the failure, then rerun unchanged against the parent: impl\.compile\.$'
expect_eq report-campaign-11.1 "fixture: impl.compile runs have no valid value" "crash invalid" \
	"$(jq -r 'select(.config["impl.compile"] != "none") | .status' "$F" | sort | paste -sd' ')"
expect_match report-campaign-11.2 "measured only together" "$md" \
	'^Measured only together with other variables — test each alone: impl\.recompute\.$'

# -- a campaign on another metric (higher is better), members by assignment
printf '{"name":"tsec","metric":"total_seconds","direction":"max","search_space":["impl.*"],"baseline":"rtx-base"}\n' >tsec.json
"$LEDGER" --db l.db campaign add tsec.json >/dev/null 2>&1
"$LEDGER" --db l.db campaign assign tsec rtx-base rtx-fused rtx-ro >/dev/null 2>&1
"$REPORT" --db l.db campaign --campaign tsec --out out >/dev/null 2>&1
t=$(unlink out/campaign-tsec.md)
expect_match report-campaign-12 "metric and direction from the declaration" "$t" '^- Metric: total\\_seconds \(higher is better\)$'
expect_match report-campaign-12.1 "baseline read from metrics.total_seconds" "$t" \
	"^- Baseline: rtx-base at \*\*$(jq -r 'select(.run_id == "rtx-base") | .metrics.total_seconds' "$F" | awk '{ printf "%.4f", $1 }')\*\*$"
expect_eq report-campaign-12.2 "assigned members only" 3 "$(printf '%s\n' "$t" | grep -c '^| [0-9]* | 2026-')"

# times say UTC: the runs table's time column
expect_match report-campaign-utc "the runs table's finished column says UTC" "$md" '^\| \\# \| finished \(UTC\) \| run \|'
expect_no_match report-campaign-utc.1 "no time column without it" "$md" '^\| \\# \| finished \|'
# Throughput, MFU and peak memory where recorded: a column each in the runs
# table when a member has it (the fixture's have none: no such columns).
expect_no_match report-campaign-13 "no throughput column when no member records it" "$md" '^\| \\# .*tok/s'
jq -c 'select(.campaign == "compile-kernel-efficiency")
	| .run_id = ("p-" + .run_id) | .campaign = "perf" | .parent = (if .parent then "p-" + .parent else null end)
	| if .status == "ok" then .metrics += {tokens_per_second: 123456.7, peak_vram_mb: 18008} else . end' "$F" >perf.jsonl
"$LEDGER" --db p.db ingest perf.jsonl >/dev/null 2>&1
printf '{"name":"perf","metric":"val_bpb","direction":"min","hardware":"RTX 3090","baseline":"p-rtx-base","search_space":["impl.*"]}\n' >perf.json
"$LEDGER" --db p.db campaign add perf.json >/dev/null 2>&1
"$REPORT" --db p.db campaign --campaign perf --out perf --no-charts >/dev/null 2>&1
pm=$(unlink perf/campaign-perf.md)
expect_match report-campaign-13.1 "tok/s and peak VRAM columns, no MFU (none recorded)" "$pm" \
	'^\| \\# \| finished \(UTC\) \| run \| status \| decision \| value \| vs baseline \| tok/s \| peak VRAM MB \| changed \| description \|$'
expect_match report-campaign-13.2 "a run's values, an empty cell for a run without them" "$pm" \
	'^\| 1 \| 2026-03-15 12:00 \| p-rtx-base \| ok \| baseline \| 1\.2457 \| 0\.0000 \| 123457 \| 18008 \|'
expect_match report-campaign-13.3 "the crashed run has none" "$pm" '\| p-rtx-ro \| crash \|  \|  \|  \|  \|  \|'

# A "win" by a change that must not move the metric: the committed GPU
# campaign (docs/example/gpu-impl-campaign, our trainer's records), where
# impl.recompute=true is the best run, beyond a floor of three repeats,
# and the audit says impl_changed_metric for it. The headline says so in
# the same sentence; the fixture's best (a real change) does not.
G="$ROOT/docs/example/gpu-impl-campaign/runs.jsonl"
"$LEDGER" --db g.db ingest "$G" >/dev/null 2>&1
gbase=$(head -n 1 "$G" | jq -r .run_id)
printf '{"name":"gpu-impl-efficiency","metric":"val_bpb","direction":"min","hardware":"H200","baseline":"%s","search_space":["impl.*"]}\n' \
	"$gbase" >g.json
"$LEDGER" --db g.db campaign add g.json >/dev/null 2>&1
"$REPORT" --db g.db campaign --campaign gpu-impl-efficiency --out g --no-charts >/dev/null 2>&1
gm=$(unlink g/campaign-gpu-impl-efficiency.md)
grec=$(jq -r 'select(.status == "ok" and .config["impl.recompute"] == true) | .run_id' "$G")
expect_match report-campaign-14 "an impl-only best run: the headline points at the audit's impl_changed_metric" "$gm" \
	"^\*\*Something beat the baseline\*\*: $grec by [0-9.]+, more than the noise floor\. But it changed only implementation variables, which must not move the metric \(impl_changed_metric under Audit findings\): check the implementation, or the noise floor, before believing it\.$"
expect_match report-campaign-14.1 "and the audit's finding names that run" "$gm" \
	"^- \*\*warn\*\* impl_changed_metric: $grec changed only impl\\.recompute "
expect_no_match report-campaign-14.2 "the fixture's best (a real change) has no such clause" "$md" 'changed only implementation variables'
