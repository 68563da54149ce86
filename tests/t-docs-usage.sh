# t-docs-usage.sh — the usage blocks of docs/ledger.md, docs/ingest.md and
# docs/report.md say what `--help` says: each code block that opens a
# command's section (or the page) and starts with "ledger " / "report " is
# compared, line by line after joining continuation lines and collapsing
# blanks, with the synopsis of that command's --help; and every command of
# both programs has such a block somewhere.
. "$ROOT/tests/lib.sh"
docs="$ROOT/docs/ledger.md $ROOT/docs/ingest.md $ROOT/docs/report.md"

# synopsis lines of a --help text: "usage: "/"   or: " dropped, wrapped lines joined
synopsis() {
	awk '/^$/ { exit }
	     /^(usage|   or): / { if (l != "") print l; sub(/^(usage|   or): /, ""); l = $0; next }
	     /^ +/ { sub(/^ +/, " "); l = l $0; next }
	     END { if (l != "") print l }' | tr -s ' '
}

# every usage block of the docs: the lines of each plain ``` block (```sh
# ones are examples) whose first line starts with "ledger " or "report " and
# has no '#' comment (examples have)
blocks() {
	awk '/^```/ { if (inb) { inb = 0; if (keep) print l; next } inb = 1; first = 1; keep = 0; l = ""
	              plain = $0 == "```"; next }
	     inb && first { first = 0; keep = plain && /^(ledger|report) / && !/#/ }
	     inb && keep && /^ +/ { sub(/^ +/, " "); l = l $0; next }
	     inb && keep { if (l != "") print l; l = $0 }' "$@" | tr -s ' '
}
blocks $docs >doc-synopses.txt

check() { # ID HELP-COMMAND…
	id=$1; shift
	"$@" 2>&1 | synopsis >want.txt
	missing=""
	while IFS= read -r line; do
		grep -qxF -- "$line" doc-synopses.txt || missing="$missing${missing:+ | }$line"
	done <want.txt
	expect_eq "$id" "docs show the usage of '$(head -n 1 want.txt | cut -d' ' -f1-2)'" "" "$missing"
}
check docs-ledger "$LEDGER" --help
for c in $("$LEDGER" --help | sed -n '/^Commands:/,$p' | awk 'NR>1{print $1}'); do
	case $c in campaign|audit) continue ;; esac # docs/audit.md shows them by example
	check "docs-ledger-$c" "$LEDGER" "$c" --help
done
check docs-report "$REPORT" --help
for c in $("$REPORT" --help | sed -n '/^Commands:/,$p' | awk 'NR>1{print $1}'); do
	check "docs-report-$c" "$REPORT" "$c" --help
done
# and no usage block in the docs that --help does not print
for p in "$LEDGER" "$REPORT"; do
	"$p" --help | synopsis
	for c in $("$p" --help | sed -n '/^Commands:/,$p' | awk 'NR>1{print $1}'); do
		"$p" "$c" --help | synopsis
	done
done >all-synopses.txt
stale=$(grep -vxF -f all-synopses.txt doc-synopses.txt | tr '\n' '|')
expect_eq docs-stale "no usage block in the docs that --help does not print" "" "$stale"
