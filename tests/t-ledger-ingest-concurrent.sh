# t-ledger-ingest-concurrent.sh — several agents ingest into one ledger at
# once. Test plan: generate two runrec/1 JSONL files of 2500 distinct (enough for the two-thread path)
# records each (awk), start two `ledger ingest` processes on the same
# database at the same time, and check both exit 0, both report all their
# records new, and every record of both files is stored exactly once (WAL +
# busy timeout make the second writer wait instead of failing).
. "$ROOT/tests/lib.sh"
need sqlite3 sqlite3
gen() { # agent count
	awk -v a="$1" -v n="$2" 'BEGIN {
		for (i = 0; i < n; i++)
			printf "{\"schema\":\"runrec/1\",\"run_id\":\"%s-%05d\",\"agent\":\"%s\",\"status\":\"ok\",\"parent\":%s,\"hardware\":{\"gpu_name\":\"NVIDIA H100 80GB HBM3\"},\"config\":{\"model.depth\":%d,\"optim.matrix_lr\":0.04,\"train.seed\":%d},\"metrics\":{\"val_bpb\":%.6f}}\n", a, i, a, i ? sprintf("\"%s-%05d\"", a, i - 1) : "null", 8 + i % 3, i, 0.99 + (i % 97) / 10000
	}'
}
gen alpha 2500 >alpha.jsonl
gen beta 2500 >beta.jsonl
"$LEDGER" --db c.db ingest alpha.jsonl >a.out 2>a.err & pa=$!
"$LEDGER" --db c.db ingest beta.jsonl >b.out 2>b.err & pb=$!
wait $pa; ra=$?
wait $pb; rb=$?
expect_eq ledger-ingest-concurrent-1.1 "both writers exit 0" "0 0" "$ra $rb"
expect_eq ledger-ingest-concurrent-1.2 "both report all records new" \
	"alpha.jsonl: 2500 new, 0 already present, 0 quarantined (runrec)|beta.jsonl: 2500 new, 0 already present, 0 quarantined (runrec)" \
	"$(cat a.out)|$(cat b.out)"
# the one that comes second may say it waits (a slow build holds the lock
# past WAIT_SAY_AFTER_S); that note is not an error
expect_eq ledger-ingest-concurrent-1.3 "no errors" "" \
	"$(cat a.err b.err | grep -v -e ': waiting for the ledger, held by another writer' -e ': got the ledger after')"
expect_eq ledger-ingest-concurrent-1.4 "every record stored once" "alpha|2500|2500
beta|2500|2500" "$(sql c.db "SELECT agent, count(*), count(DISTINCT run_id) FROM runs GROUP BY agent ORDER BY agent")"
expect_eq ledger-ingest-concurrent-1.5 "each file went in as one block (one transaction per file)" "2" \
	"$(sql c.db "SELECT count(*) FROM (SELECT agent, max(id) - min(id) + 1 AS span, count(*) AS n FROM runs GROUP BY agent) WHERE span = n")"
expect_eq ledger-ingest-concurrent-1.6 "exact changes for every child" "4998" \
	"$(sql c.db "SELECT count(DISTINCT run) FROM changes WHERE how = 'exact'")"

# Eight agents ingest large files into one ledger while another writer
# holds it for longer than SQLite's 30 s busy timeout (before, each of
# them gave up there with "database is locked"; and so 3 of 8 concurrent
# 200,000-record ingests did, docs/ingest.md). Each file: 5,000 records of
# its own agent and the same 1,000 shared records, so the distinct union
# is 41,000. The lock holder makes every write transaction wait behind
# another (each prints the waiting line); they then go one at a time.
# Checks: every ingest exits 0, each file's own records are new and the
# shared ones new exactly once, the ledger holds exactly the distinct
# union, each file went in as one block, and integrity_check is ok.
"$LEDGER" --db big.db init >/dev/null
gen shared 1000 >shared.jsonl
for k in 1 2 3 4 5 6 7 8; do
	{ gen "agent$k" 5000; cat shared.jsonl; } >"f$k.jsonl"
done
# Until the lock is held: a probe that may not wait fails. The holder
# waits for the lock itself (.timeout): a probe holds it for an instant,
# and a holder whose BEGIN met one failed at once (the sqlite3 shell waits
# for nothing by default) and held nothing; CI once saw the whole section
# run unlocked that way. A lock never held fails the test here.
wait_held() { # ID
	i=0
	while sqlite3 big.db 'PRAGMA busy_timeout = 0; BEGIN IMMEDIATE; ROLLBACK;' >/dev/null 2>&1; do
		i=$((i + 1))
		if [ $i -ge 300 ]; then
			expect_eq "$1" "the lock holder got the lock within 30 s" held "not held"
			return 1
		fi
		sleep 0.1
	done
}
hold_lock() { # SECONDS ID: hold big.db's write lock that long, in the background
	{ echo '.timeout 60000'; echo 'BEGIN IMMEDIATE;'; sleep "$1"; echo 'COMMIT;'; } |
		sqlite3 big.db & holder=$!
	wait_held "$2"
}
# Held until the file 'release' appears: the test releases it once every
# ingest has said it waits and 32 s have passed since they started, so a
# slow machine (a sanitizer build, a loaded CI) cannot end the wait early.
rm -f release
{ echo '.timeout 60000'; echo 'BEGIN IMMEDIATE;'; while [ ! -e release ]; do sleep 0.2; done; echo 'COMMIT;'; } |
	sqlite3 big.db & holder=$!
wait_held ledger-ingest-concurrent-2.0
t0=$(date +%s)
pids=
for k in 1 2 3 4 5 6 7 8; do
	"$LEDGER" --db big.db ingest "f$k.jsonl" >"f$k.out" 2>"f$k.err" & pids="$pids $!"
done
waiting() { cat f?.err 2>/dev/null | grep -c ': waiting for the ledger'; }
while { [ "$(waiting)" -lt 8 ] || [ $(($(date +%s) - t0)) -lt 32 ]; } && [ $(($(date +%s) - t0)) -lt 300 ]; do
	sleep 0.2
done
touch release
codes=
for p in $pids; do wait "$p"; codes="$codes $?"; done
wait "$holder"
t1=$(date +%s)
expect_eq ledger-ingest-concurrent-2.1 "8 concurrent ingests behind a 32 s lock: all exit 0" \
	" 0 0 0 0 0 0 0 0" "$codes"
expect_eq ledger-ingest-concurrent-2.2 "every one said it was waiting" 8 \
	"$(cat f?.err | grep -c '^ledger: ingest: f[1-8].jsonl: waiting for the ledger, held by another writer (as long as it takes; --wait SECONDS bounds it)$')"
expect_eq ledger-ingest-concurrent-2.3 "and how long it waited: each past the 30 s busy timeout" 8 \
	"$(cat f?.err | sed -n 's/^ledger: ingest: f[1-8].jsonl: got the ledger after \([0-9.]*\) s$/\1/p' |
		awk '$1 > 30 { n++ } END { print n + 0 }')"
expect_eq ledger-ingest-concurrent-2.4 "no other message" "" \
	"$(cat f?.err | grep -v -e ': waiting for the ledger' -e ': got the ledger after')"
expect_eq ledger-ingest-concurrent-2.5 "each file: 6000 records, the shared 1000 new exactly once" \
	"6000 6000 6000 6000 6000 6000 6000 6000|41000" \
	"$(for k in 1 2 3 4 5 6 7 8; do sed -n 's/^f[1-8].jsonl: \([0-9]*\) new, \([0-9]*\) already present, 0 quarantined (runrec)$/\1 \2/p' "f$k.out"; done |
		awk '{ t = t sep ($1 + $2); sep = " "; n += $1 } END { print t "|" n }')"
expect_eq ledger-ingest-concurrent-2.6 "the ledger holds exactly the distinct union" "41000|41000|41000" \
	"$(sql big.db 'SELECT count(*), count(DISTINCT run_id), count(DISTINCT content_hash) FROM runs')"
expect_eq ledger-ingest-concurrent-2.7 "each agent's records, all of them, as one block (one transaction a file)" \
	"agent1|5000 agent2|5000 agent3|5000 agent4|5000 agent5|5000 agent6|5000 agent7|5000 agent8|5000 shared|1000" \
	"$(sql big.db "SELECT agent || '|' || count(*) FROM runs GROUP BY agent HAVING max(id) - min(id) + 1 = count(*) ORDER BY agent" | tr '\n' ' ' | sed 's/ $//')"
expect_eq ledger-ingest-concurrent-2.8 "integrity_check" "ok" "$(sql big.db 'PRAGMA integrity_check')"
echo "# 8 x 6000 records behind a 32 s lock: $((t1 - t0)) s"

# --wait bounds the wait: the file is not ingested, and the message says
# which and what to do; the ledger is unchanged.
hold_lock 4 ledger-ingest-concurrent-3.0
expect_code ledger-ingest-concurrent-3.1 "--wait 1 behind a 4 s lock: exit 3" 3 \
	"$LEDGER" --db big.db ingest --wait 1 alpha.jsonl
wait "$holder"
expect_match ledger-ingest-concurrent-3.2 "it said it was waiting, and for how long at most" "$err" \
	'^ledger: ingest: alpha.jsonl: waiting for the ledger, held by another writer \(up to 1 s, --wait\)$'
expect_match ledger-ingest-concurrent-3.3 "the hint names the file not ingested" "$err" \
	'^ledger: hint: ingest: alpha.jsonl and the files after it were not ingested: another writer held the ledger for longer than --wait 1 s'
expect_eq ledger-ingest-concurrent-3.4 "nothing of it stored" 41000 "$(sql big.db 'SELECT count(*) FROM runs')"
expect_code ledger-ingest-concurrent-3.5 "--wait x is refused" 2 "$LEDGER" --db big.db ingest --wait x alpha.jsonl

# The same eight files into a ledger that does not exist yet: all open it
# at once, one makes the schema, the others find it made (db.c
# begin_upgrade) and queue for the write lock.
pids=
for k in 1 2 3 4 5 6 7 8; do
	"$LEDGER" --db new.db ingest "f$k.jsonl" >"n$k.out" 2>"n$k.err" & pids="$pids $!"
done
codes=
for p in $pids; do wait "$p"; codes="$codes $?"; done
expect_eq ledger-ingest-concurrent-4.1 "8 concurrent ingests creating the ledger: all exit 0" \
	" 0 0 0 0 0 0 0 0" "$codes"
expect_eq ledger-ingest-concurrent-4.2 "exactly the distinct union, integrity ok" "41000|41000 ok" \
	"$(sql new.db 'SELECT count(*), count(DISTINCT run_id) FROM runs') $(sql new.db 'PRAGMA integrity_check')"
expect_eq ledger-ingest-concurrent-4.3 "no message but the waiting lines" "" \
	"$(cat n?.err | grep -v -e ': waiting for the ledger' -e ': got the ledger after')"
