# t-install.sh — `make install DESTDIR=…` gives one command on PATH
# (bin/runledger) and the programs in libexec/runledger/, which run from
# the installed place (report finds the installed templates, not the
# tree's); the man pages render; the bash completion, loaded in bash,
# completes commands, options and values from the option tables — the
# commands that came on the tables last (compare, summary, note, tag,
# decide, archive, export) and --archived included.
. "$ROOT/tests/lib.sh"
need make make
need jq jq
dest=$PWD/dest
P=$dest/usr/local
make -C "$ROOT" -s BUILD="$BUILD" install PREFIX=/usr/local DESTDIR="$dest" >make.log 2>&1
expect_eq install-1.0 "make install DESTDIR=… exits 0" 0 "$?"
expect_eq install-1.1 "one name on PATH: bin/runledger" "runledger" "$(ls "$P/bin")"
expect_eq install-1.2 "the programs keep their names in libexec/runledger/" "ledger
report
trainer" "$(ls "$P/libexec/runledger")"
expect_eq install-1.3 "man pages" "runledger-report.1
runledger-train.1
runledger.1" "$(ls "$P/share/man/man1")"
expect_eq install-1.4 "templates" "yes" "$(test -f "$P/share/runledger/templates/daily.md" && echo yes)"
expect_eq install-1.5 "bash completion" "yes" \
	"$(test -f "$P/share/bash-completion/completions/runledger" && echo yes)"

# Run from the installed place only: no tree on the way.
unset RUNLEDGER_TEMPLATES
RL="$P/bin/runledger"
expect_code install-2.1 "runledger --version" 0 "$RL" --version
expect_match install-2.1m "... names it" "$out" '^runledger [0-9]+\.[0-9]+'
expect_code install-2.2 "runledger ingest (the ledger's command)" 0 \
	"$RL" --db l.db ingest "$FIXTURES/report/runs.jsonl"
expect_code install-2.3 "runledger query" 0 "$RL" query --db l.db --limit=2 --format tsv
expect_eq install-2.3n "... two runs and a header" 3 "$(printf '%s\n' "$out" | wc -l)"
expect_code install-2.4 "runledger report daily, templates from share/runledger" 0 \
	"$RL" report --db l.db daily --date 2026-03-16 --out out --no-charts
expect_match install-2.4f "... wrote the digest" "$(head -n 1 out/2026-03-16.md)" '2026-03-16'
expect_code install-2.5 "runledger help query" 0 "$RL" help query
expect_eq install-2.5u "... the usage says what to type" "usage: runledger query" \
	"$(printf '%s\n' "$out" | head -n 1 | cut -c1-22)"
expect_code install-2.6 "runledger train --help" 0 "$RL" train --help
expect_match install-2.6u "... the trainer's usage" "$(printf '%s\n' "$out" | head -n 1)" '^usage: runledger train '
expect_code install-2.7 "runledger report --version" 0 "$RL" report --version
expect_eq install-2.7v "... the report program answers" "report (runledger)" "$(echo "$out" | cut -d' ' -f1-2)"
expect_code install-2.8 "a mistyped command" 2 "$RL" qeury
expect_eq install-2.8m "... did you mean, with the installed name" "runledger: 'qeury' is not a runledger command
runledger: hint: did you mean 'query'? ('runledger --help' lists the commands)" "$err"
# every message names what the user typed, not the program behind it
expect_code install-2.8r "a mistyped report command" 2 "$RL" report dialy
expect_eq install-2.8s "... its messages start with 'runledger report:'" "runledger report: 'dialy' is not a runledger report command
runledger report: hint: did you mean 'daily'? ('runledger report --help' lists the commands)" "$err"
expect_code install-2.8t "an unknown trainer option" 2 "$RL" train --bogus=1
expect_eq install-2.8u "... its messages start with 'runledger train:'" "runledger train: unknown option '--bogus'
runledger train: hint: run 'runledger train --help'" "$err"
expect_code install-2.8v "a ledger error under --format json" 2 "$RL" --format json qeury
expect_eq install-2.8w "... JSON keeps the program's own name in \"program\"" "ledger" \
	"$(printf '%s' "$err" | jq -r .program)"
# a program that is not where runledger looks for it: said, exit 3
mkdir -p lone/bin && cp "$RL" lone/bin/
expect_code install-2.9 "programs missing: exit 3" 3 lone/bin/runledger query
expect_match install-2.9m "... says which and where it looked" "$err" \
	"^runledger: cannot find the program 'ledger' \\(tried .*lone/bin/\\.\\./libexec/runledger/ledger"

# The man pages render, and hold every command of the help.
if command -v man >/dev/null 2>&1; then render() { MANWIDTH=100 man -l "$1" 2>&1; }
else need groff groff-base; render() { groff -man -Tutf8 -rLL=100n "$1" 2>&1 | col -b; }; fi
page=$(render "$P/share/man/man1/runledger.1")
expect_match install-3.1 "runledger(1) renders its NAME" "$page" '^ *runledger - a ledger of training runs'
missing=""
for c in $("$RL" help | sed -n '/^Commands:/,$p' | awk 'NR>1{print $1}'); do
	printf '%s\n' "$page" | grep -q "^ *runledger $c\b" || missing="$missing $c"
done
expect_eq install-3.2 "runledger(1) documents every ledger command" "" "$missing"
expect_match install-3.3 "... with their options" "$page" '^ *--order time\|metric'
expect_eq install-3.4 "groff finds nothing to warn about" "" \
	"$(groff -man -Tutf8 -ww -z "$P"/share/man/man1/*.1 2>&1)"
# the commands that came on the tables last, each with its own options
# in its own section (section: from its heading to the next command's)
section() { printf '%s\n' "$page" | awk -v c="runledger $1" '
	$0 ~ "^ *runledger [a-z]+$" { on = $0 ~ "^ *" c "$" } on'; }
got=""
for want in "compare --all" "compare --limit N" "compare --archived" "compare --campaign NAME" "summary --metric NAME" \
	"summary --maximize" "summary --archived" "note --who NAME" "tag --who NAME" "decide --who NAME" \
	"archive --who NAME" "archive --undo" "query --archived" "frontier --archived" "repeats --archived" "audit --archived"; do
	section "${want%% *}" | grep -q "^ *${want#* }\b" || got="$got | $want"
done
expect_eq install-3.7 "runledger(1): compare, summary, note, tag, decide, archive and --archived with their options" "" "$got"
expect_match install-3.8 "... export has its section" "$(section export)" 'JSONL'
expect_eq install-3.9 "... and --undo only under archive, --archived not under show" "|" \
	"$(section note | grep -c -- '--undo' | sed 's/^0$//')|$(section show | grep -c -- '--archived' | sed 's/^0$//')"
page=$(render "$P/share/man/man1/runledger-report.1")
expect_match install-3.5 "runledger-report(1) documents --chart-days" "$page" '^ *--chart-days N'
page=$(render "$P/share/man/man1/runledger-train.1")
expect_match install-3.6 "runledger-train(1) documents --record" "$page" '^ *--record FILE'

# The completion, loaded in bash: what TAB offers after each line.
complete_line() { # words…; the last one is being completed
	bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _runledger; echo "${COMPREPLY[*]}"' \
		sh "$P/share/bash-completion/completions/runledger" "$@"
}
expect_eq install-4.1 "runledger qu<TAB>" "query quarantine" "$(complete_line runledger qu)"
expect_eq install-4.2 "runledger re<TAB>: ledger and front commands" "report repeats reinfer" \
	"$(complete_line runledger re)"
expect_eq install-4.3 "runledger query --or<TAB>" "--order" "$(complete_line runledger query --or)"
expect_eq install-4.4 "runledger query --order <TAB>" "time metric" "$(complete_line runledger query --order '')"
expect_eq install-4.5 "runledger --format j<TAB>" "json" "$(complete_line runledger --format j)"
expect_eq install-4.6 "runledger query --fo<TAB>: global options too" "--format" \
	"$(complete_line runledger query --fo)"
expect_eq install-4.7 "runledger report d<TAB>" "daily" "$(complete_line runledger report d)"
expect_eq install-4.8 "runledger report daily --no<TAB>" "--no-charts" \
	"$(complete_line runledger report daily --no)"
expect_eq install-4.9 "runledger train model.dep<TAB>" "model.depth=" "$(complete_line runledger train model.dep)"
expect_eq install-4.10 "runledger help fr<TAB>" "frontier" "$(complete_line runledger help fr)"
expect_eq install-4.11 "runledger frontier --by <TAB>" "class tier" "$(complete_line runledger frontier --by '')"
expect_eq install-4.12 "runledger query --agent <TAB>: a value, no option names" "" \
	"$(complete_line runledger query --agent '')"
expect_eq install-4.13 "runledger co<TAB>: compare" "compare" "$(complete_line runledger co)"
expect_eq install-4.14 "runledger su<TAB>, ex<TAB>, de<TAB>" "summary|export|decide" \
	"$(complete_line runledger su)|$(complete_line runledger ex)|$(complete_line runledger de)"
expect_eq install-4.15 "runledger archive --<TAB>: the global options, --help, its own" "--db --format --help --who --undo" \
	"$(complete_line runledger archive --)"
expect_eq install-4.16 "runledger summary --arc<TAB>, compare --al<TAB>" "--archived|--all" \
	"$(complete_line runledger summary --arc)|$(complete_line runledger compare --al)"
expect_eq install-4.17 "runledger show --arc<TAB>: show takes no --archived" "" "$(complete_line runledger show --arc)"
expect_eq install-4.18 "runledger note --who <TAB>: a value, no option names" "" "$(complete_line runledger note --who '')"
