# t-report-compare.sh — the campaign report's side-by-side view: the
# campaign's most recent runs as `ledger compare` shows them, and their
# training curves (the record's "curve") overlaid in one SVG chart drawn
# without gnuplot: one polyline per run (broken at a null loss), a legend
# entry per run with its id escaped, deterministic, archived runs left out.
. "$ROOT/tests/lib.sh"
need jq jq
C=curvy
# four runs: three with curves (one has a null loss in the middle), one without
rec() { # ID PARENT DEPTH VAL CURVE_JSON
	printf '{"schema":"runrec/1","run_id":"%s","parent":%s,"campaign":"%s","status":"ok","decision":"keep","finished_at":"2026-03-16T0%d:00:00Z","hardware":{"gpu_name":"NVIDIA H100 80GB HBM3"},"config":{"model.depth":%d},"metrics":{"val_bpb":%s}%s}\n' \
		"$1" "$2" $C "$3" "$3" "$4" "${5:+,\"curve\":$5}"
}
{
	rec base null 1 1.10 '{"step":[0,100,200,300],"tokens":[0,1,2,3],"train_loss":[9.0,5.0,4.0,3.5],"lr_mult":[1,1,1,1],"tok_per_s":[null,1,1,1]}'
	rec 'd<2>&' '"base"' 2 1.05 '{"step":[0,100,200,300],"tokens":[0,1,2,3],"train_loss":[9.1,4.8,null,3.2],"lr_mult":[1,1,1,1],"tok_per_s":[null,1,1,1]}'
	rec d3 '"base"' 3 1.20
	rec d4 '"base"' 4 1.02 '{"step":[0,150,300],"tokens":[0,1,2],"train_loss":[8.0,4.0,3.0],"lr_mult":[1,1,1],"tok_per_s":[null,1,1]}'
} >runs.jsonl
"$LEDGER" --db l.db ingest runs.jsonl >/dev/null 2>&1 || { not_ok report-compare-0 "fixture ingests" "$(cat stderr.txt)"; exit 1; }
printf '{"name":"%s","search_space":["model.depth"]}\n' $C >camp.json
"$LEDGER" --db l.db campaign add camp.json >/dev/null 2>&1

expect_code report-compare-1.1 "campaign report (charts off: the curves chart needs no gnuplot)" 0 \
	"$REPORT" --db l.db campaign --campaign $C --out out --no-charts
md=$(sed -n '/^## Side by side/,/^## Changed/p' out/campaign-$C.md)
expect_match report-compare-1.2 "a column per run, in time order" "$md" '^\| section \| key \| base \| d&lt;2&gt;&amp; \| d3 \| d4 \|$'
expect_eq report-compare-1.3 "the rows of ledger compare --campaign, in md" \
	"$("$LEDGER" --db l.db --format md compare --campaign $C)" \
	"$(printf '%s\n' "$md" | grep '^|')"
expect_match report-compare-1.4 "the chart's image" "$md" '^!\[Training loss against step of 3 runs, one colour each, overlaid\]\(charts/campaign-curvy-curves\.svg\)$'
svg=out/charts/campaign-$C-curves.svg
[ -s "$svg" ] && ok report-compare-2.1 "the SVG is written" || not_ok report-compare-2.1 "the SVG is written" "$(ls -R out)"
expect_eq report-compare-2.2 "one polyline per run, the null loss breaking d<2>&'s in two" "4" "$(grep -c '<polyline' "$svg")"
expect_eq report-compare-2.3 "points drawn: 4 + (2 + 1) + 3" "10" \
	"$(grep -o 'points="[^"]*"' "$svg" | sed 's/points="//; s/"$//' | tr ' ' '\n' | grep -c ,)"
expect_eq report-compare-2.4 "legend: the three runs with a curve, the id escaped" "base
d&lt;2&gt;&amp;
d4" "$(grep -o '<text x="94" y="[0-9]*" font-size="12">[^<]*' "$svg" | sed 's/.*>//')"
expect_no_match report-compare-2.5 "no raw run text in the SVG" "$(cat "$svg")" 'd<2>'
# every point inside the plot area (x 64..696, y 40..356)
expect_eq report-compare-2.6 "every point inside the plot area" "" \
	"$(grep -o 'points="[^"]*"' "$svg" | sed 's/points="//; s/"$//' | tr ' ' '\n' |
		awk -F, '$1 < 64 || $1 > 696 || $2 < 40 || $2 > 356')"
expect_match report-compare-2.7 "the lowest loss (3.0, d4's last) at the bottom edge, its last step at the right" \
	"$(grep -o 'points="[^"]*"' "$svg" | tail -1)" ' 696\.0,356\.0"$'
cp "$svg" first.svg
"$REPORT" --db l.db campaign --campaign $C --out out --no-charts >/dev/null 2>&1
cmp -s first.svg "$svg" && ok report-compare-2.8 "the same bytes again" || not_ok report-compare-2.8 "the same bytes again" "differs"
expect_match report-compare-2.9 "the HTML shows the table and the chart" "$(cat out/campaign-$C.html)" \
	'<img src="charts/campaign-curvy-curves\.svg"'

# archived: left out of the view and the chart
"$LEDGER" --db l.db archive d4 >/dev/null
"$REPORT" --db l.db campaign --campaign $C --out arch --no-charts >/dev/null 2>&1
expect_match report-compare-3.1 "archived d4 is not a column" "$(cat arch/campaign-$C.md)" '^\| section \| key \| base \| d&lt;2&gt;&amp; \| d3 \|$'
expect_eq report-compare-3.2 "nor a curve" "3" "$(grep -c '<polyline' arch/charts/campaign-$C-curves.svg)"
"$REPORT" --db l.db campaign --archived --campaign $C --out witharch --no-charts >/dev/null 2>&1
expect_match report-compare-3.3 "campaign --archived: d4 is a column again" "$(cat witharch/campaign-$C.md)" \
	'^\| section \| key \| base \| d&lt;2&gt;&amp; \| d3 \| d4 \|$'
expect_eq report-compare-3.4 "and the chart as before the archive" "" "$(cmp first.svg witharch/charts/campaign-$C-curves.svg 2>&1)"

# no curves at all: said, no chart file
"$LEDGER" --db l.db archive base 'd<2>&' >/dev/null
"$REPORT" --db l.db campaign --campaign $C --out none --no-charts >/dev/null 2>&1
expect_match report-compare-4.1 "no curve: said so" "$(cat none/campaign-$C.md)" '^None of these runs recorded a training curve\.$'
[ ! -e none/charts/campaign-$C-curves.svg ] && ok report-compare-4.2 "(no chart file)" || not_ok report-compare-4.2 "(no chart file)" "it exists"
