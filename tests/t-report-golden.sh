# t-report-golden.sh — golden files: docs/example/ (the README's example) is
# regenerated from the fixture into a fresh directory and must match the
# committed markdown, HTML, chart data and gnuplot scripts, and every run
# page (runs/: markdown, HTML and the curve SVGs, written without gnuplot)
# byte for byte.
# After an intended change of a report, rerun docs/example/regenerate.sh and
# review the diff. Chart images are only checked to exist (their bytes
# depend on the gnuplot version).
. "$ROOT/tests/lib.sh"
if ! command -v "${RUNLEDGER_GNUPLOT:-gnuplot}" >/dev/null 2>&1; then
	ok report-golden-0 "# SKIP gnuplot not installed (the examples embed charts)"
	exit 0
fi
G="$ROOT/docs/example"
LEDGER="$LEDGER" REPORT="$REPORT" sh "$G/regenerate.sh" "$PWD/new" 2>err.txt
i=0
for f in $(cd "$G" && ls *.md *.html *.numbers.json charts/*.dat charts/*.gp runs/*); do
	i=$((i + 1))
	if cmp -s "$G/$f" "new/$f"; then ok "report-golden-$i" "$f matches"
	else not_ok "report-golden-$i" "$f differs from docs/example (regenerate if intended)" "$(diff "$G/$f" "new/$f" 2>&1 | head -8)"; fi
done
expect_eq report-golden-files "the same set of files" "$(cd "$G" && ls *.md *.html *.numbers.json charts/*.dat charts/*.gp runs/*)" \
	"$(cd new && ls *.md *.html *.numbers.json charts/*.dat charts/*.gp runs/*)"
for f in charts/2026-03-16-frontier charts/campaign-compile-kernel-efficiency-progress; do
	[ -s "new/$f.svg" ] && [ -s "new/$f.png" ] && ok "report-golden-img-${f#charts/}" "$f.svg and .png drawn" ||
		not_ok "report-golden-img-${f#charts/}" "$f.svg and .png drawn" "$(cat err.txt)"
done
