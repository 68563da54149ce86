# lib.sh — helpers for shell tests; source it first: . "$ROOT/tests/lib.sh"
# Each check prints "ok ID - desc" or "not ok ID - desc" plus the evidence.
# Tests run in a fresh temporary directory (the runner's cwd).

ok() { echo "ok $1 - $2"; }
not_ok() { echo "not ok $1 - $2"; shift 2; for l in "$@"; do printf '#   %s\n' "$l"; done; }

# expect_code ID DESC CODE CMD... : CMD exits with CODE; output in $out/$err
expect_code() {
	id=$1 desc=$2 want=$3; shift 3
	"$@" >stdout.txt 2>stderr.txt
	got=$?
	out=$(cat stdout.txt); err=$(cat stderr.txt)
	if [ "$got" -eq "$want" ]; then ok "$id" "$desc"
	else not_ok "$id" "$desc" "exit $got, wanted $want: $*" "stderr: $(head -c 600 stderr.txt)"; fi
}

# expect_eq ID DESC EXPECTED ACTUAL
expect_eq() {
	if [ "$3" = "$4" ]; then ok "$1" "$2"
	else not_ok "$1" "$2" "expected: $3" "actual:   $4"; fi
}

# expect_match ID DESC TEXT REGEX (grep -E, any line)
expect_match() {
	if printf '%s\n' "$3" | grep -Eq -- "$4"; then ok "$1" "$2"
	else not_ok "$1" "$2" "no line matches /$4/ in:" "$(printf '%s' "$3" | head -c 800)"; fi
}

expect_no_match() {
	if printf '%s\n' "$3" | grep -Eq -- "$4"; then not_ok "$1" "$2" "unexpected /$4/ in:" "$(printf '%s' "$3" | head -c 800)"
	else ok "$1" "$2"; fi
}

# sql DB QUERY : one value (needs sqlite3)
sql() { sqlite3 -batch -noheader "$1" "$2"; }

# need TOOL PACKAGE : a test that computes its expectations with TOOL stops
# here when TOOL is missing, saying which and how to get it, instead of
# comparing against what a missing tool printed (nothing, "-nan", 0.0000).
need() {
	command -v "$1" >/dev/null 2>&1 && return 0
	not_ok "need-$1" "$(basename "$0" .sh) needs $1, which is not installed" \
		"install it: sh scripts/deps.sh (as root), or apt-get install $2"
	exit 1
}
