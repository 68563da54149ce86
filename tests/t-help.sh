# t-help.sh — every ledger command answers --help with exit 0 and a usage
# line; unknown commands and formats are usage errors (exit 2).
. "$ROOT/tests/lib.sh"
for c in $("$LEDGER" --help | sed -n '/^Commands:/,$p' | awk 'NR>1{print $1}'); do
	expect_code "help-ledger-$c" "ledger $c --help exits 0" 0 "$LEDGER" "$c" --help
	expect_match "help-ledger-$c.out" "ledger $c --help prints usage" "$out" '^usage: ledger'
	"$LEDGER" help "$c" >help-cmd.txt 2>&1
	expect_eq "help-ledger-$c.same" "ledger help $c is ledger $c --help" "$out" "$(cat help-cmd.txt)"
done
for p in "$LEDGER" "$TRAINER" "$REPORT"; do
	expect_code "help-$(basename "$p")" "$(basename "$p") --help exits 0" 0 "$p" --help
done
expect_code help-unknown "unknown command is a usage error" 2 "$LEDGER" frobnicate
expect_match help-unknown.msg "unknown command message" "$err" "'frobnicate' is not a ledger command"
expect_code help-badfmt "unknown format is a usage error" 2 "$LEDGER" --format yaml query
expect_code help-none "no command prints usage, exit 2" 2 "$LEDGER"
