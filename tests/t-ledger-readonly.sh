# t-ledger-readonly.sh — read-only and broken places (issue 11, item 5).
# Test plan: a ledger in a read-only directory, a read-only file, an
# immutable file (chattr +i) and a read-only bind mount: every read command
# and report read it, and leave it as it was; ingest is refused with one
# message that says which it is. An empty file gets no schema from a read.
# A full disk (a tiny tmpfs, else ulimit -f) and a ledger held by another
# writer name the ledger, what to do and the files not ingested.
# Root ignores permission bits, so the permission cases run as nobody
# (setpriv); each case that needs what the machine lacks says
# "ok ID - skipped: why".
. "$ROOT/tests/lib.sh"
need sqlite3 sqlite3
skip() { ok "$1" "skipped: $2"; }
chmod 755 . # nobody must reach the ledgers here (mktemp -d makes it 0700)

if [ "$(id -u)" != 0 ]; then
	as_user() { "$@"; }
	user=1
elif command -v setpriv >/dev/null 2>&1 &&
	setpriv --reuid=65534 --regid=65534 --clear-groups "$LEDGER" --help >/dev/null 2>&1; then
	as_user() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
	user=1
else
	user=0
fi

run() { # run_id finished
	printf '{"schema":"runrec/1","run_id":"%s","status":"ok","hardware":{"gpu_name":"NVIDIA H100 80GB HBM3"},"finished_at":"%s","metrics":{"val_bpb":%s}}\n' "$1" "$2" "$3"
}
run ro-1 2026-03-16T04:00:00Z 1.0 >one.jsonl
run ro-2 2026-03-16T05:00:00Z 0.9 >two.jsonl
chmod 644 one.jsonl two.jsonl
# the other user may not reach the checkout (a clone under /root is 0700):
# report reads its templates from a copy here
cp -R "$ROOT/templates" tpl && chmod -R a+rX tpl
export RUNLEDGER_TEMPLATES="$PWD/tpl"

# Every read command on the ledger DB, as the user ($1: a tag for the ids).
read_all() {
	tag=$1 db=$2
	for c in query frontier repeats quarantine audit "show ro-1" "diff ro-1 ro-1" "campaign list"; do
		# shellcheck disable=SC2086
		as_user "$LEDGER" --db "$db" $c >r.out 2>r.err
		rc=$?
		# audit without campaigns says so with exit 0; diff of a run with itself: 0
		expect_eq "readonly-$tag-$c" "$c reads it (exit 0, no error)" "0|" "$rc|$(grep -v 'hint: no campaign' r.err)"
	done
	mkdir -p -m 777 "out-$tag"
	as_user "$REPORT" --db "$db" daily --date 2026-03-16 --out "out-$tag" >r.out 2>r.err
	expect_eq "readonly-$tag-report" "report daily reads it" "0|" "$?|$(cat r.err)"
	as_user "$LEDGER" --db "$db" --format tsv query >r.out 2>&1
	expect_match "readonly-$tag-query-row" "query shows the run" "$(cat r.out)" "^ro-1	"
}

# --- a read-only directory, a read-only file ------------------------------
if [ "$user" = 1 ]; then
	mkdir ro rw
	"$LEDGER" --db ro/l.db ingest one.jsonl >/dev/null
	"$LEDGER" --db ro/l.db ingest two.jsonl >/dev/null
	"$LEDGER" --db ro/l.db ingest one.jsonl >/dev/null
	cp ro/l.db rw/l.db
	chmod 444 ro/l.db rw/l.db
	chmod 555 ro
	chmod 777 rw
	before=$(sha256sum <ro/l.db)
	read_all dir ro/l.db
	expect_eq readonly-dir-untouched "the file is unchanged and nothing was made beside it" "$before|l.db" \
		"$(sha256sum <ro/l.db)|$(ls ro)"
	read_all file rw/l.db
	expect_code readonly-dir-ingest "ingest into a read-only directory: exit 3" 3 as_user "$LEDGER" --db ro/l.db ingest two.jsonl
	expect_match readonly-dir-ingest-msg "says the directory" "$err" \
		"^ledger: cannot write to ledger 'ro/l.db': the file is read-only \(Permission denied\)$|^ledger: cannot write to ledger 'ro/l.db': its directory 'ro' is not writable \(Permission denied\)$"
	expect_code readonly-file-ingest "ingest into a read-only file: exit 3" 3 as_user "$LEDGER" --db rw/l.db ingest two.jsonl
	expect_eq readonly-file-ingest-msg "the same clear message, no fatal store.c" \
"ledger: cannot write to ledger 'rw/l.db': the file is read-only (Permission denied)
ledger: hint: ingest, init, campaign add/assign, reinfer, note, tag, decide and archive write the ledger: it and its directory must be writable (WAL mode keeps 'rw/l.db-wal' and 'rw/l.db-shm' beside it); query, show, diff, compare, frontier, repeats, summary, quarantine, audit, export, campaign list/show and report read a read-only ledger" "$err"
	rm -f rw/l.db-wal rw/l.db-shm # left by the readers; with them SQLite needs no new file
	chmod 666 rw/l.db
	chmod 555 rw
	expect_code readonly-dir2-ingest "a writable file in a read-only directory: exit 3" 3 as_user "$LEDGER" --db rw/l.db ingest two.jsonl
	expect_match readonly-dir2-ingest-msg "names the directory" "$err" \
		"^ledger: cannot write to ledger 'rw/l.db': its directory 'rw' is not writable \(Permission denied\)$"
	expect_eq readonly-dir2-runs "nothing changed" "2" "$(sql rw/l.db "SELECT count(*) FROM runs")"

	# a write-ahead log with changes, no -shm, a read-only directory: say so
	mkdir walsrc waldir
	"$LEDGER" --db walsrc/l.db ingest one.jsonl >/dev/null
	(echo "PRAGMA wal_autocheckpoint=0; INSERT INTO quarantine(reason) VALUES('held');"; sleep 2) |
		sqlite3 walsrc/l.db >/dev/null 2>&1 &
	holder=$!
	sleep 1
	cp walsrc/l.db walsrc/l.db-wal waldir/ 2>/dev/null
	wait $holder
	if [ -s waldir/l.db-wal ]; then
		chmod 555 waldir
		expect_code readonly-wal "a read-only directory with a write-ahead log but no -shm: exit 3" 3 \
			as_user "$LEDGER" --db waldir/l.db query
		expect_match readonly-wal-msg "says why and what to do" "$err" \
			"^ledger: hint: its write-ahead log 'waldir/l.db-wal' holds changes not yet in the file, and reading them needs 'waldir/l.db-shm', which cannot be made here"
		chmod 755 waldir
	else
		skip readonly-wal "could not catch a write-ahead log with changes"
		skip readonly-wal-msg "could not catch a write-ahead log with changes"
	fi
	chmod 755 ro rw
else
	for id in dir file wal; do skip "readonly-$id" "running as root and setpriv cannot drop to nobody"; done
fi

# --- an immutable file (root too cannot write it) ---------------------------
"$LEDGER" --db imm.db ingest one.jsonl >/dev/null
if chattr +i imm.db 2>/dev/null; then
	expect_code readonly-immutable-ingest "ingest into an immutable file: exit 3" 3 "$LEDGER" --db imm.db ingest two.jsonl
	expect_match readonly-immutable-msg "the file is read-only, not a fatal error" "$err" \
		"^ledger: cannot write to ledger 'imm.db': the file is read-only \(Operation not permitted\)$"
	expect_no_match readonly-immutable-nofatal "no fatal" "$err" "fatal"
	expect_code readonly-immutable-query "query reads it" 0 "$LEDGER" --db imm.db query
	chattr -i imm.db
else
	skip readonly-immutable "chattr +i is not supported here (file system or capability)"
fi

# --- a read-only bind mount -------------------------------------------------
mkdir -p src mnt
"$LEDGER" --db src/l.db ingest one.jsonl >/dev/null
"$LEDGER" --db src/l.db ingest two.jsonl >/dev/null
cat >mounted.sh <<EOF
mount --bind src mnt && mount -o remount,bind,ro mnt || exit 99
"$LEDGER" --db mnt/l.db --format tsv query >m-query.out 2>m-query.err; echo \$? >m-query.rc
"$LEDGER" --db mnt/l.db frontier >/dev/null 2>m-frontier.err; echo \$? >m-frontier.rc
"$REPORT" --db mnt/l.db daily --date 2026-03-16 --out m-report >/dev/null 2>m-report.err; echo \$? >m-report.rc
"$LEDGER" --db mnt/l.db ingest one.jsonl >/dev/null 2>m-ingest.err; echo \$? >m-ingest.rc
umount mnt
EOF
if command -v unshare >/dev/null 2>&1 && unshare -m sh mounted.sh 2>/dev/null; then
	expect_eq readonly-mount-query "query on a read-only mount: exit 0, both runs" "0|2|" \
		"$(cat m-query.rc)|$(grep -c '^ro-' m-query.out)|$(cat m-query.err)"
	expect_eq readonly-mount-frontier "frontier on it" "0|" "$(cat m-frontier.rc)|$(cat m-frontier.err)"
	expect_eq readonly-mount-report "report daily on it" "0|" "$(cat m-report.rc)|$(cat m-report.err)"
	expect_eq readonly-mount-ingest "ingest: exit 3, the mount named" \
		"3|ledger: cannot write to ledger 'mnt/l.db': it is on a read-only file system" \
		"$(cat m-ingest.rc)|$(head -n 1 m-ingest.err)"
else
	skip readonly-mount "no private mount namespace here (unshare -m and mount need CAP_SYS_ADMIN)"
fi

# --- an empty file ----------------------------------------------------------
: >empty.db
for c in query frontier; do
	expect_code "readonly-empty-$c" "$c on an empty file: exit 3" 3 "$LEDGER" --db empty.db $c
done
expect_eq readonly-empty-msg "says it is not a ledger yet" \
"ledger: ledger 'empty.db' is empty: not a ledger yet, so there is nothing to read
ledger: hint: 'ledger ingest FILE' or 'ledger init' makes it a ledger; a read command leaves it as it is" "$err"
expect_code readonly-empty-report "report on it: exit 3" 3 "$REPORT" --db empty.db daily --date 2026-03-16 --out rep
expect_eq readonly-empty-left "the file is still empty, nothing beside it" "0|empty.db" \
	"$(wc -c <empty.db | tr -d ' ')|$(ls empty.db*)"

# --- a full disk ------------------------------------------------------------
awk 'BEGIN { for (i = 0; i < 3000; i++)
	printf "{\"schema\":\"runrec/1\",\"run_id\":\"f-%d\",\"status\":\"ok\",\"description\":\"%0500d\",\"metrics\":{\"val_bpb\":1.%04d}}\n", i, i, i }' >big.jsonl
mkdir -p full
cat >full.sh <<EOF
mount -t tmpfs -o size=1m tmpfs full || exit 99
"$LEDGER" --db full/l.db ingest one.jsonl >/dev/null 2>&1
"$LEDGER" --db full/l.db ingest two.jsonl big.jsonl one.jsonl >f.out 2>f.err; echo \$? >f.rc
"$LEDGER" --db full/l.db --format tsv query >f-query.out 2>&1
umount full
EOF
if command -v unshare >/dev/null 2>&1 && unshare -m sh full.sh 2>/dev/null; then
	how="a 1 MB tmpfs"
	want_hint="^ledger: hint: the disk holding the ledger '.*full/l\.db' is full: free space there"
else # a file size limit: writes past it fail (EFBIG) once SIGXFSZ is ignored
	how="ulimit -f"
	mkdir -p full
	"$LEDGER" --db full/l.db ingest one.jsonl >/dev/null 2>&1
	sh -c "trap '' XFSZ; ulimit -f 600; \"$LEDGER\" --db full/l.db ingest two.jsonl big.jsonl one.jsonl >f.out 2>f.err; echo \$? >f.rc"
	"$LEDGER" --db full/l.db --format tsv query >f-query.out 2>&1
	want_hint="^ledger: hint: a write to the ledger '.*full/l\.db' failed: its disk is full, a file size limit was reached"
fi
expect_eq readonly-full-rc "disk full ($how): exit 3 after the file that fits" \
	"3|two.jsonl: 1 new, 0 already present, 0 quarantined (runrec)" "$(cat f.rc)|$(cat f.out)"
expect_match readonly-full-hint "names the ledger and what to do" "$(cat f.err)" "$want_hint"
expect_match readonly-full-files "names the files not ingested" "$(cat f.err)" \
	"^ledger: ingest: not ingested: 'big.jsonl' \(rolled back: nothing of it is stored\), 'one.jsonl' \(not started\)$"
expect_eq readonly-full-kept "the ledger holds what went in before, nothing of the big file" "2|0" \
	"$(grep -c '^ro-' f-query.out)|$(grep -c '^f-' f-query.out)"

# --- a ledger held by another writer ------------------------------------------
"$LEDGER" --db lk.db ingest one.jsonl >/dev/null
mkfifo hold
sqlite3 lk.db <hold >/dev/null 2>&1 &
holder=$!
exec 9>hold
echo "BEGIN IMMEDIATE; INSERT INTO quarantine(reason) VALUES('held');" >&9
sleep 0.5
LEDGER_BUSY_TIMEOUT=0.3 "$LEDGER" --db lk.db ingest two.jsonl big.jsonl >lk.out 2>lk.err
lrc=$?
echo "ROLLBACK;" >&9
exec 9>&-
wait $holder
expect_eq readonly-locked-rc "locked past the busy timeout: exit 3, nothing stored" "3||1" \
	"$lrc|$(cat lk.out)|$(sql lk.db "SELECT count(*) FROM runs")"
expect_match readonly-locked-msg "database is locked" "$(cat lk.err)" "^ledger: database: database is locked$"
expect_match readonly-locked-files "names the files not ingested" "$(cat lk.err)" \
	"^ledger: ingest: not ingested: 'two.jsonl' \(rolled back: nothing of it is stored\), 'big.jsonl' \(not started\)$"
