#!/bin/sh
# t-ledger-pg.sh — a ledger on a real PostgreSQL 15 (tests/lib-pg.sh starts it;
# docs/postgres.md): init makes the v4 schema in PostgreSQL's types with its
# version and change log, once, also when two start together; check finds
# what it can; an older ledger without the log gets one from init, and is
# refused by the other commands saying so; a URL is never made a file;
# (the whole command set on both backends: t-ledger-pg-same.sh)
# passwords never reach a message; libpq's environment applies; the roles of
# docs/postgres.md do what it says.
. "$ROOT/tests/lib.sh"
. "$ROOT/tests/lib-pg.sh"
pg_start

# ---- init ---------------------------------------------------------------
expect_code pg-init-new "init makes the schema on an empty database" 0 "$LEDGER" --db "$PG_URL" --format tsv init
expect_eq pg-init-row "init prints the ledger, version 4, 0 runs, ok" \
	"$(printf 'ledger\tschema\tn_runs\thealth\n%s\t4\t0\tok' "$PG_URL")" "$out"
expect_eq pg-init-version "ledger_meta records schema version 4" 4 \
	"$(pg_sql "SELECT value FROM ledger_meta WHERE key = 'schema_version'")"

# the same tables and columns (names, order) as an SQLite ledger's, in
# PostgreSQL's types
"$LEDGER" --db lite.db init >/dev/null
lite_cols=$(for t in runs changes quarantine campaigns campaign_runs annotations metrics; do
	sql lite.db "SELECT '$t', name, type FROM pragma_table_info('$t') ORDER BY cid" | tr '|' '\t'; done)
pg_cols=$(for t in runs changes quarantine campaigns campaign_runs annotations metrics; do
	pg_sql "SELECT table_name, column_name, upper(data_type) FROM information_schema.columns
		WHERE table_schema = 'public' AND table_name = '$t' ORDER BY ordinal_position"; done)
expect_eq pg-schema-columns "every table has SQLite's columns in order, INTEGER as BIGINT, REAL as DOUBLE PRECISION" \
	"$lite_cols" "$(printf '%s\n' "$pg_cols" | sed 's/BIGINT$/INTEGER/; s/DOUBLE PRECISION$/REAL/')"
expect_eq pg-schema-indexes "the SQLite ledger's eight indexes, the frontier's partial" \
	"$(sql lite.db "SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY name")" \
	"$(pg_sql "SELECT indexname FROM pg_indexes WHERE schemaname = 'public' AND indexname NOT LIKE '%_pkey'
		AND indexname NOT LIKE '%_key' ORDER BY indexname")"
expect_match pg-schema-partial "runs_frontier covers only valid measurements" \
	"$(pg_sql "SELECT indexdef FROM pg_indexes WHERE indexname = 'runs_frontier'")" 'WHERE \(val_bpb IS NOT NULL\)$'
expect_match pg-schema-identity "runs.id is an identity column" \
	"$(pg_sql "SELECT is_identity FROM information_schema.columns WHERE table_name = 'runs' AND column_name = 'id'")" '^YES$'
expect_code pg-schema-check "the CHECK constraints came along (how)" 1 \
	pg_sql "INSERT INTO runs(run_id, content_hash, status, record) VALUES ('r1', 'h', 'ok', '{}');
		INSERT INTO changes(run, var, how) SELECT id, 'x', 'guessed' FROM runs"
pg_sql "DELETE FROM runs" >/dev/null

created=$(pg_sql "SELECT value FROM ledger_meta WHERE key = 'created_at'")
sleep 1
expect_code pg-init-again "init on an existing ledger reports it" 0 "$LEDGER" --db "$PG_URL" --format json init
expect_match pg-init-again-json "as JSON: schema 4, health ok" "$(printf '%s' "$out" | tr -d '\n ')" \
	'"schema":4,"n_runs":0,"health":"ok"'
expect_eq pg-init-again-nowrite "and writes nothing (created_at unchanged)" "$created" \
	"$(pg_sql "SELECT value FROM ledger_meta WHERE key = 'created_at'")"

# two agents making the same new ledger at once: one schema, both succeed
pg_sql "CREATE DATABASE two" postgres >/dev/null
url2=$(printf '%s' "$PG_URL" | sed 's|/ledger?|/two?|')
"$LEDGER" --db "$url2" init >i1.out 2>i1.err & p1=$!
"$LEDGER" --db "$url2" init >i2.out 2>i2.err & p2=$!
wait $p1; r1=$?; wait $p2; r2=$?
[ "$r1 $r2" = "0 0" ] || cat i1.err i2.err | sed 's/^/# /'
expect_eq pg-init-concurrent "two inits at once both succeed" "0 0" "$r1 $r2"
expect_eq pg-init-concurrent-once "and make one schema (seven tables and the change log)" "1 8" \
	"$(pg_sql "SELECT count(*) FROM ledger_meta WHERE key = 'schema_version'" two) $(pg_sql "SELECT count(*) FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'ledger_meta'" two)"

# a newer ledger, a database that is not a ledger
pg_sql "UPDATE ledger_meta SET value = '5' WHERE key = 'schema_version'" two >/dev/null
expect_code pg-init-newer "a ledger of a newer schema is refused" 3 "$LEDGER" --db "$url2" init
expect_match pg-init-newer-msg "saying so" "$err" "has schema version 5; this ledger understands up to 4"
pg_sql "CREATE DATABASE other" postgres >/dev/null
pg_sql "CREATE TABLE runs(x int)" other
url3=$(printf '%s' "$PG_URL" | sed 's|/ledger?|/other?|')
expect_code pg-init-foreign "a database with another 'runs' table is refused" 3 "$LEDGER" --db "$url3" init
expect_eq pg-init-foreign-untouched "and nothing is created in it" 1 \
	"$(pg_sql "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'" other)"

# ---- check ----------------------------------------------------------------
expect_code pg-check-ok "check on a sound ledger" 0 "$LEDGER" --db "$PG_URL" --format tsv check
expect_eq pg-check-rows "schema and foreign_key_check ok" \
	"$(printf 'ledger\tcheck\tresult\n%s\tschema\tok\n%s\tforeign_key_check\tok' "$PG_URL" "$PG_URL")" "$out"
pg_sql "DROP INDEX runs_hw" >/dev/null
expect_code pg-check-index "a missing index is a finding" 1 "$LEDGER" --db "$PG_URL" --format tsv check
expect_match pg-check-index-msg "named" "$out" "schema	index 'runs_hw' is missing"
pg_sql "CREATE INDEX runs_hw ON runs(hw_class)" >/dev/null
pg_sql "SET session_replication_role = replica; INSERT INTO annotations(run, kind, value, at) VALUES (999, 'note', 'x', 'now')" >/dev/null
expect_code pg-check-orphan "an annotation of a run that is not there is a finding" 1 "$LEDGER" --db "$PG_URL" --format tsv check
expect_match pg-check-orphan-msg "named" "$out" "foreign_key_check	annotations: 1 rows name a run"
expect_code pg-init-damaged "init says damaged (exit 1)" 1 "$LEDGER" --db "$PG_URL" init
pg_sql "DELETE FROM annotations" >/dev/null
pg_sql "CREATE DATABASE empty" postgres >/dev/null
url4=$(printf '%s' "$PG_URL" | sed 's|/ledger?|/empty?|')
expect_code pg-check-empty "check on a database without a ledger" 1 "$LEDGER" --db "$url4" --format tsv check
expect_match pg-check-empty-msg "says init makes one" "$out" "no ledger here .*'ledger init' creates one"

# ---- a ledger made before the change log ------------------------------------
pg_sql "CREATE DATABASE old" postgres >/dev/null
urlold=$(printf '%s' "$PG_URL" | sed 's|/ledger?|/old?|')
"$LEDGER" --db "$urlold" init >/dev/null
pg_sql "DROP TABLE ledger_log; DELETE FROM ledger_meta WHERE key = 'ledger_id'" old >/dev/null
pg_sql "CREATE ROLE olduser LOGIN; GRANT SELECT ON ALL TABLES IN SCHEMA public TO olduser" old >/dev/null
oldread=$(printf '%s' "$urlold" | sed 's|user=postgres|user=olduser|')
expect_code pg-nolog-read "a role that may not make the log: query fails (exit 3)" 3 "$LEDGER" --db "$oldread" query
expect_match pg-nolog-read-msg "naming the log and 'ledger init'" "$err" "has no change log \(table ledger_log\).*|hint: run 'ledger --db URL init' once as the ledger's owner"
expect_code pg-nolog-init "init as the owner adds the log" 0 "$LEDGER" --db "$urlold" init
expect_eq pg-nolog-made "ledger_log and a ledger_id are there" "1 1" \
	"$(pg_sql "SELECT count(*) FROM pg_tables WHERE tablename = 'ledger_log'" old) $(pg_sql "SELECT count(*) FROM ledger_meta WHERE key = 'ledger_id'" old)"
expect_code pg-nolog-nogrant "a read role granted before the log existed cannot read it" 3 "$LEDGER" --db "$oldread" query
expect_match pg-nolog-nogrant-msg "and is told so" "$err" "permission denied for table ledger_log"
pg_sql "GRANT SELECT ON ALL TABLES IN SCHEMA public TO olduser" old >/dev/null
expect_code pg-nolog-query "granted again (docs/postgres.md#roles), it queries" 0 "$LEDGER" --db "$oldread" query
expect_code pg-url-query "a query on a URL runs (on the local replica)" 0 "$LEDGER" --db "$PG_URL" query
expect_code pg-url-report "so does a report" 0 "$REPORT" --db "$PG_URL" daily --date 2026-03-16 --out rep
expect_code pg-url-env "LEDGER_DB=postgres://… is a server too" 3 env LEDGER_DB="postgres://u:hunter22@127.0.0.1:$PG_PORT/ledger" "$LEDGER" query
expect_no_match pg-url-env-pw "its message without the password" "$err" hunter22
expect_eq pg-url-nofile "no file was made of a URL" "lite.db" "$(ls | grep -v '\.txt$\|\.out$\|\.err$\|^replicas$\|^rep$')"
expect_no_match pg-url-cache-name "the replicas' names hold no password" "$(ls replicas)" "hunter22"

# ---- connections and passwords --------------------------------------------
pg_sql "CREATE ROLE bob LOGIN PASSWORD 'Corr3ct-horse'; GRANT SELECT ON ALL TABLES IN SCHEMA public TO bob" >/dev/null
tcp="127.0.0.1:$PG_PORT/ledger"
# every message of a failed connection, password in the URL, in a
# password= parameter, percent-encoded, in PGPASSWORD: never printed
expect_code pg-pw-url "a wrong password in the URL: exit 3" 3 "$LEDGER" --db "postgresql://bob:Wr0ng-staple@$tcp" init
expect_match pg-pw-url-msg "the message names the server and the failure" "$err" \
	"cannot connect to the PostgreSQL ledger 'postgresql://bob@$tcp': .*password authentication failed"
expect_no_match pg-pw-url-hidden "and not the password" "$out$err" "Wr0ng-staple"
expect_code pg-pw-param "a wrong password= parameter: exit 3" 3 "$LEDGER" --db "postgresql://bob@$tcp?password=Wr0ng-param" --format json init
expect_no_match pg-pw-param-hidden "never printed, JSON errors too" "$out$err" "Wr0ng-param"
expect_code pg-pw-enc "a percent-encoded password: exit 3" 3 "$LEDGER" --db "postgresql://bob:p%40ss-w%3Ard@$tcp" init
expect_no_match pg-pw-enc-hidden "neither as typed nor decoded" "$out$err" 'p%40ss|p@ss-w:rd'
expect_code pg-pw-env "a wrong PGPASSWORD: exit 3" 3 env PGPASSWORD=Env-s3cret "$LEDGER" --db "postgresql://bob@$tcp" init
expect_no_match pg-pw-env-hidden "never printed" "$out$err" "Env-s3cret"
expect_code pg-pw-bad-url "a URL libpq cannot read: exit 3" 3 "$LEDGER" --db "postgresql://bob:Bad-s3cret@$tcp?nosuchoption=1" init
expect_no_match pg-pw-bad-url-hidden "its message hides the password too" "$out$err" "Bad-s3cret"
expect_code pg-pw-good "the right password in the URL connects" 0 "$LEDGER" --db "postgresql://bob:Corr3ct-horse@$tcp" --format json check
expect_no_match pg-pw-good-hidden "and the output shows the URL without it" "$out$err" "Corr3ct-horse"
expect_match pg-pw-good-name "as postgresql://bob@host" "$out" "\"postgresql://bob@$tcp\""
expect_code pg-pw-replica "a query with the password in the URL (bob may only read)" 0 env RUNLEDGER_CACHE_DIR="$PWD/bob-cache" "$LEDGER" --db "postgresql://bob:Corr3ct-horse@$tcp" query
expect_no_match pg-pw-replica-out "says nothing of the password" "$out$err" "Corr3ct-horse"
expect_eq pg-pw-replica-made "makes one replica" 1 "$(ls bob-cache | grep -c '\.db$')"
expect_no_match pg-pw-replica-name "whose name holds no password" "$(ls bob-cache)" "Corr3ct|horse"
expect_eq pg-pw-replica-meta "and whose record of the server is the URL without it" "postgresql://bob@$tcp" \
	"$(sql bob-cache/*.db "SELECT value FROM replica_meta WHERE key = 'server'")"
expect_eq pg-pw-replica-nowhere "the password is nowhere in the replica's files" "" "$(grep -l "Corr3ct-horse" bob-cache/* 2>/dev/null)"

# libpq's environment: PGPASSFILE, PGHOST/PGPORT/PGUSER, sslmode
printf '127.0.0.1:%s:ledger:bob:Corr3ct-horse\n' "$PG_PORT" >pgpass && chmod 600 pgpass
expect_code pg-env-passfile "PGPASSFILE supplies the password" 0 env PGPASSFILE="$PWD/pgpass" "$LEDGER" --db "postgresql://bob@$tcp" check
expect_code pg-env-host "PGHOST, PGPORT and PGUSER fill a bare URL" 0 \
	env PGHOST="$PG_SOCKDIR" PGPORT="$PG_PORT" PGUSER=postgres "$LEDGER" --db "postgresql:///ledger" check
expect_code pg-env-sslmode "sslmode=require against a server without SSL fails" 3 \
	env PGPASSFILE="$PWD/pgpass" "$LEDGER" --db "postgresql://bob@$tcp?sslmode=require" check
expect_match pg-env-sslmode-msg "with libpq's reason" "$err" "does not support SSL"
PGSSLMODE=require; export PGSSLMODE
expect_code pg-env-pgsslmode "PGSSLMODE=require applies as well" 3 env PGPASSFILE="$PWD/pgpass" "$LEDGER" --db "postgresql://bob@$tcp" check
unset PGSSLMODE
dead=$(pg_free_port)
expect_code pg-dead "no server at the port: exit 3" 3 "$LEDGER" --db "postgresql://bob:Dead-s3cret@127.0.0.1:$dead/ledger" check
expect_match pg-dead-msg "naming the server, with the hint" "$err" "127.0.0.1:$dead/ledger'.*refused|hint: check the URL"
expect_no_match pg-dead-hidden "and not the password" "$err" "Dead-s3cret"

# ---- push: a local SQLite ledger to the server ----------------------------
export RUNLEDGER_NOW=2026-04-01T10:00:00Z LEDGER_WHO=alice
{ "$LEDGER" --db a.db ingest "$FIXTURES/query/runs.jsonl" &&
  "$LEDGER" --db a.db ingest --hardware 'RTX 3090' --started-at 2026-03-18T00:00:00Z "$FIXTURES/audit/seed-results.tsv" &&
  "$LEDGER" --db a.db note h100-d12 'OOM: "batch 64" | try 32' &&
  LEDGER_WHO=bob "$LEDGER" --db a.db decide h100-d9 discard &&
  # a val_bpb of 17 significant digits: 15 would not bring it back
  jq -c '.run_id = "h100-digits" | .metrics.val_bpb = 0.98765432109876543' "$FIXTURES/ingest/single.json" >digits.json &&
  "$LEDGER" --db a.db ingest digits.json; } >/dev/null 2>&1 || not_ok pg-push-0 "fixtures ingest"
# two lines ingest refuses: quarantined, with file, line and reason
printf '{"run_id": \n[1, 2]\n' >refused.jsonl
"$LEDGER" --db a.db ingest refused.jsonl >/dev/null 2>&1
nq=$(sql a.db "SELECT count(*) FROM quarantine")
expect_eq pg-push-0.2 "(two lines in the local quarantine)" 2 "$nq"
pg_sql "CREATE DATABASE pushed" postgres >/dev/null
purl=$(printf '%s' "$PG_URL" | sed 's|/ledger?|/pushed?|')
n=$(sql a.db "SELECT count(*) FROM runs")
tsv() { sqlite3 -batch -noheader -separator '	' "$@"; }
# what must arrive: runs by run_id, their changes and annotations by run_id
lite_runs() { tsv a.db "SELECT run_id, content_hash, parent, status, t_finished IS NULL, record FROM runs ORDER BY run_id"; }
pg_runs() { pg_sql "SELECT run_id, content_hash, parent, status, (t_finished IS NULL)::int, record FROM runs ORDER BY run_id" pushed; }
lite_changes() { tsv a.db "SELECT r.run_id, var, old, new, how, span, infer_version FROM changes c JOIN runs r ON r.id = c.run ORDER BY 1, 2"; }
pg_changes() { pg_sql "SELECT r.run_id, var, old, new, how, span, infer_version FROM changes c JOIN runs r ON r.id = c.run ORDER BY 1, 2" pushed; }
lite_annots() { tsv a.db "SELECT r.run_id, kind, key, value, who, at FROM annotations a JOIN runs r ON r.id = a.run ORDER BY 1, a.id"; }
pg_annots() { pg_sql "SELECT r.run_id, kind, key, value, who, at FROM annotations a JOIN runs r ON r.id = a.run ORDER BY 1, a.id" pushed; }
lite_quar() { tsv a.db "SELECT source_file, line, reason, content, ingested_at FROM quarantine ORDER BY id"; }
pg_quar() { pg_sql "SELECT source_file, line, reason, content, ingested_at FROM quarantine ORDER BY id" pushed; }
expect_code pg-push-1 "push into an empty database makes the schema and sends every run" 0 "$LEDGER" --db a.db --format tsv push "$purl"
expect_eq pg-push-1-counts "all new, the two annotations too" "$(printf 'server\truns\tnew\tpresent\tdiffers\tannotations_new\tquarantine_new\n%s\t%s\t%s\t0\t0\t2\t2' "$purl" "$n" "$n")" "$out"
expect_eq pg-push-1-runs "the server holds every run, record byte for byte" "$(lite_runs)" "$(pg_runs)"
expect_eq pg-push-1-changes "and every change, with how, span and version" "$(lite_changes)" "$(pg_changes)"
expect_eq pg-push-1-annots "and every annotation, with who and when" "$(lite_annots)" "$(pg_annots)"
expect_eq pg-push-1-quar "and every quarantined line, with file, line, reason, content and time" "$(lite_quar)" "$(pg_quar)"
expect_match pg-push-1-quar-some "(which names the file and the line)" "$(pg_quar)" "^refused.jsonl	1	"
# every REAL to the last bit (SQLite's text of one keeps 15 digits; quote() all it needs)
vals=$(sql a.db "SELECT group_concat('(' || quote(run_id) || ',' || quote(val_bpb) || ',' || quote(t_finished) || ')', ',') FROM runs")
expect_eq pg-push-0.1 "(a val_bpb that 15 digits would not keep)" 1 \
	"$(sql a.db "SELECT val_bpb <> CAST(printf('%.15g', val_bpb) AS REAL) FROM runs WHERE run_id = 'h100-digits'")"
expect_eq pg-push-1-reals "val_bpb and t_finished exact" "$n" \
	"$(pg_sql "SELECT count(*) FROM (VALUES $vals) v(id, b, t) JOIN runs r ON r.run_id = v.id WHERE r.val_bpb IS NOT DISTINCT FROM v.b::float8 AND r.t_finished IS NOT DISTINCT FROM v.t::float8" pushed)"
expect_code pg-push-2 "push again" 0 "$LEDGER" --db a.db --format tsv push "$purl"
expect_eq pg-push-2-counts "sends nothing: every run present" "$(printf '%s\t%s\t0\t%s\t0\t0\t0' "$purl" "$n" "$n")" "$(printf '%s' "$out" | tail -n 1)"
expect_eq pg-push-2-same "the server unchanged" "$n 2 2" "$(pg_sql "SELECT count(*) FROM runs" pushed) $(pg_sql "SELECT count(*) FROM annotations" pushed) $(pg_sql "SELECT count(*) FROM quarantine" pushed)"
"$LEDGER" --db a.db tag h100-d12 reviewed=yes >/dev/null
# a line refused after the push, and one refused again (stored once locally)
printf '{"broken"\n' >refused2.jsonl
"$LEDGER" --db a.db ingest refused2.jsonl refused.jsonl >/dev/null 2>&1
expect_code pg-push-3 "an annotation and a quarantined line after the push" 0 "$LEDGER" --db a.db --format tsv push "$purl"
expect_match pg-push-3-counts "are sent by the next, the new line alone" "$out" "	0	$n	0	1	1$"
expect_eq pg-push-3-annots "the annotations agree again" "$(lite_annots)" "$(pg_annots)"
expect_eq pg-push-3-quar "and the quarantines" "$(lite_quar)" "$(pg_quar)"
# an interrupted push left runs out: the next sends just those
pg_sql "DELETE FROM changes WHERE run IN (SELECT id FROM runs ORDER BY id DESC LIMIT 5);
	DELETE FROM metrics WHERE run IN (SELECT id FROM runs ORDER BY id DESC LIMIT 5);
	DELETE FROM annotations WHERE run IN (SELECT id FROM runs ORDER BY id DESC LIMIT 5);
	DELETE FROM runs WHERE id IN (SELECT id FROM runs ORDER BY id DESC LIMIT 5)" pushed >/dev/null
# (a hand edit of the server's tables bypasses the change log the replicas
# follow: they are removed here, as docs/postgres.md says to)
rm -rf "$RUNLEDGER_CACHE_DIR"
expect_code pg-push-resume "push after losing runs on the way" 0 "$LEDGER" --db a.db --format tsv push "$purl"
expect_match pg-push-resume-counts "sends the 5 missing" "$out" "	$n	5	$((n - 5))	0	"
expect_eq pg-push-resume-runs "and the two ledgers agree" "$(lite_runs)$(lite_changes)" "$(pg_runs)$(pg_changes)"
# a run the server has with another record: kept, said, exit 1
pg_sql "UPDATE runs SET content_hash = 'other' WHERE run_id = 'h100-d9'" pushed >/dev/null
rm -rf "$RUNLEDGER_CACHE_DIR"
expect_code pg-push-differs "a run the server holds differently" 1 "$LEDGER" --db a.db --format tsv push "$purl"
expect_match pg-push-differs-msg "is named in a warning" "$err" "1 run the server has with another record \(first: 'h100-d9'\)"
expect_eq pg-push-differs-kept "and the server's copy is kept" other "$(pg_sql "SELECT content_hash FROM runs WHERE run_id = 'h100-d9'" pushed)"
# ids came from the replica: the server's identity sequences follow them
# (the owner's setval), so a row added by another tool gets a free id
seq_at_max() { pg_sql "SELECT bool_and(pg_sequence_last_value(pg_get_serial_sequence(t, 'id')) = m)
	FROM (VALUES ('runs', (SELECT max(id) FROM runs)), ('annotations', (SELECT max(id) FROM annotations)),
	('quarantine', (SELECT max(id) FROM quarantine))) v(t, m)" "$1"; }
expect_eq pg-seq-1 "every identity sequence at its table's max(id) after the pushes" t "$(seq_at_max pushed)"
qmax=$(pg_sql "SELECT max(id) FROM quarantine" pushed) amax=$(pg_sql "SELECT max(id) FROM annotations" pushed)
expect_eq pg-seq-2 "psql's INSERT without an id takes the next free one" "$((qmax + 1)) $((amax + 1))" \
	"$(pg_sql "INSERT INTO quarantine(source_file, line, reason) VALUES ('psql', 1, 'by hand') RETURNING id" pushed) $(pg_sql "INSERT INTO annotations(run, kind, value, at) SELECT min(id), 'note', 'by hand', '2026-04-01T10:00:00Z' FROM runs RETURNING id" pushed)"
# the other way round: the replica does not know that row (it is not in
# the change log), so its next annotation takes the same id; the write is
# refused as a whole, and the next command copies the tables and succeeds
expect_code pg-seq-3 "a write that meets a row added by hand" 3 "$LEDGER" --db "$purl" note h100-d12 'after psql'
expect_match pg-seq-3-msg "fails, saying why and what to do" "$err" "duplicate key.*SQLSTATE 23505.*|hint: a row the server has and the local replica lacks.*run the command again"
expect_code pg-seq-4 "run again" 0 "$LEDGER" --db "$purl" note h100-d12 'after psql'
expect_eq pg-seq-4-rows "it is stored beside the hand-made row" "$((amax + 2)) by hand|after psql" \
	"$(pg_sql "SELECT max(id) FROM annotations" pushed) $(pg_sql "SELECT string_agg(value, '|' ORDER BY id) FROM annotations WHERE id > $amax" pushed)"
# two pushes of the same ledger at once into a fresh database
pg_sql "CREATE DATABASE twice" postgres >/dev/null
turl=$(printf '%s' "$PG_URL" | sed 's|/ledger?|/twice?|')
"$LEDGER" --db a.db init >/dev/null
"$LEDGER" --db "$turl" init >/dev/null
"$LEDGER" --db a.db --format tsv push "$turl" >p1.out 2>p1.err & p1=$!
"$LEDGER" --db a.db --format tsv push "$turl" >p2.out 2>p2.err & p2=$!
wait $p1; r1=$?; wait $p2; r2=$?
if [ "$r1 $r2" = "0 0" ]; then ok pg-push-concurrent "two pushes at once both succeed"
else not_ok pg-push-concurrent "two pushes at once both succeed" "exits $r1 $r2, wanted 0 0" \
	"first: $(head -c 600 p1.err)" "second: $(head -c 600 p2.err)"; fi
expect_eq pg-push-concurrent-new "between them each run is new once" "$n" \
	"$(( $(tail -n 1 p1.out | cut -f3) + $(tail -n 1 p2.out | cut -f3) ))"
expect_eq pg-push-concurrent-once "and the server holds each run and annotation once" \
	"$n $(sql a.db "SELECT count(*) FROM annotations")" \
	"$(pg_sql "SELECT count(*) FROM runs" twice) $(pg_sql "SELECT count(*) FROM annotations" twice)"
expect_code pg-push-usage "push without a URL" 2 "$LEDGER" --db a.db push
expect_code pg-push-usage-path "push to a file name" 2 "$LEDGER" --db a.db push b.db
unset RUNLEDGER_NOW LEDGER_WHO

# ---- roles (the GRANTs of docs/postgres.md, as written there) -------------
awk '/<!-- end roles.sql -->/ { on = 0 } on && !/^```/ { print } /<!-- begin roles.sql -->/ { on = 1 }' \
	"$ROOT/docs/postgres.md" >roles.sql
expect_code pg-roles-doc "the roles block of docs/postgres.md runs" 0 \
	psql -X -q -v ON_ERROR_STOP=1 -h "$PG_SOCKDIR" -p "$PG_PORT" -U postgres -d ledger -f roles.sql
pg_sql "CREATE ROLE agent7 LOGIN IN ROLE ledger_ingest; CREATE ROLE digest LOGIN IN ROLE ledger_read" >/dev/null
as() { # ROLE SQL: psql as ROLE (trust on the socket)
	psql -X -q -A -t -v ON_ERROR_STOP=1 -h "$PG_SOCKDIR" -p "$PG_PORT" -U "$1" -d ledger -c "$2"
}
ins="INSERT INTO runs(run_id, content_hash, status, record) VALUES"
expect_code pg-role-ingest-insert "the ingest role adds a run" 0 as agent7 "$ins ('r-a', 'h', 'ok', '{}')"
expect_code pg-role-ingest-annot "and an annotation" 0 as agent7 \
	"INSERT INTO annotations(run, kind, value, at) SELECT id, 'note', 'n', 'now' FROM runs WHERE run_id = 'r-a'"
expect_code pg-role-ingest-delete "the ingest role cannot delete runs" 1 as agent7 "DELETE FROM runs"
expect_match pg-role-ingest-delete-msg "permission denied" "$err" "permission denied for table runs"
expect_code pg-role-ingest-delannot "nor annotations" 1 as agent7 "DELETE FROM annotations"
expect_code pg-role-ingest-campaign "nor change campaigns" 1 as agent7 "INSERT INTO campaigns VALUES ('c', '{}')"
expect_code pg-role-read-select "the read role reads runs" 0 as digest "SELECT count(*) FROM runs"
expect_eq pg-role-read-select-n "and sees the run" 1 "$out"
expect_code pg-role-read-insert "the read role cannot add a run" 1 as digest "$ins ('r-b', 'h', 'ok', '{}')"
expect_match pg-role-read-insert-msg "permission denied" "$err" "permission denied for table runs"
expect_code pg-role-read-update "nor change one" 1 as digest "UPDATE runs SET status = 'crash'"
digest_url="postgresql:///ledger?host=$PG_SOCKDIR&port=$PG_PORT&user=digest"
expect_code pg-role-read-init "init by the read role reports an existing ledger (reads only)" 0 "$LEDGER" --db "$digest_url" --format tsv init
expect_match pg-role-read-init-row "one run, ok" "$out" "	4	1	ok$"
expect_code pg-role-read-check "and check runs with read rights alone" 0 "$LEDGER" --db "$digest_url" check
pg_sql "GRANT CONNECT ON DATABASE empty TO digest" >/dev/null
expect_code pg-role-read-create "init by the read role on an empty database fails" 3 \
	"$LEDGER" --db "postgresql:///empty?host=$PG_SOCKDIR&port=$PG_PORT&user=digest" init
expect_match pg-role-read-create-msg "saying the role lacks the right, pointing at the roles" "$err" \
	"SQLSTATE 42501.*|hint: .*docs/postgres.md#roles"
expect_eq pg-role-read-create-none "and leaves nothing behind (one transaction)" 0 \
	"$(pg_sql "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'" empty)"
# push with the roles: the ingest role can, the read role cannot
agent_url="postgresql:///ledger?host=$PG_SOCKDIR&port=$PG_PORT&user=agent7"
expect_code pg-role-ingest-push "the ingest role pushes a local ledger" 0 "$LEDGER" --db a.db --format tsv push "$agent_url"
expect_match pg-role-ingest-push-counts "every run new" "$out" "	$n	$n	0	0	"
expect_eq pg-seq-role "the ingest role (USAGE: nextval) leaves the sequences at max(id) too" t "$(seq_at_max ledger)"
expect_code pg-role-read-push-none "the read role's push of nothing new writes nothing, and succeeds" 0 "$LEDGER" --db a.db push "$digest_url"
"$LEDGER" --db a.db tag h100-d12 pushed-by=digest >/dev/null
expect_code pg-role-read-push "the read role cannot push something new" 3 "$LEDGER" --db a.db push "$digest_url"
expect_match pg-role-read-push-msg "and is told so" "$err" "permission denied for table annotations.*SQLSTATE 42501"

# ---- the ingest role's UPDATE ON runs, narrowed by row-level security ------
expect_code pg-rls-ok "the ingest role's UPDATE of the finished runs" 0 as agent7 \
	"UPDATE runs SET description = 'rewritten' WHERE status = 'ok'"
expect_eq pg-rls-ok-none "touches no row (the policy hides it)" "" "$out"
expect_eq pg-rls-ok-kept "and the run is as it was" 0 \
	"$(pg_sql "SELECT count(*) FROM runs WHERE description = 'rewritten'")"
# (ids come from the replicas, so the identity's sequence lags: a row
# added by hand names its id)
pg_sql "INSERT INTO runs(id, run_id, content_hash, status, record) SELECT max(id) + 1, 'r-running', 'h', 'running', '{}' FROM runs" >/dev/null
expect_code pg-rls-running "a running run's record it may replace" 0 as agent7 \
	"UPDATE runs SET status = 'ok' WHERE run_id = 'r-running'"
expect_eq pg-rls-running-done "and it is replaced" ok "$(pg_sql "SELECT status FROM runs WHERE run_id = 'r-running'")"
expect_code pg-rls-read "the read role still reads every run" 0 as digest "SELECT count(*) FROM runs"
expect_eq pg-rls-read-n "all of them" "$(pg_sql "SELECT count(*) FROM runs")" "$out"
# through ledger: the agent ingests a running record, then its final one
rm -rf "$RUNLEDGER_CACHE_DIR" # the rows above came in by hand
jq -c '.run_id = "rls-run" | .status = "running" | del(.finished_at) | del(.metrics)' "$FIXTURES/ingest/single.json" >running.json
jq -c '.run_id = "rls-run"' "$FIXTURES/ingest/single.json" >final.json
expect_code pg-rls-ingest-running "the ingest role ingests a running record" 0 "$LEDGER" --db "$agent_url" ingest running.json
expect_code pg-rls-ingest-final "and its final record, which replaces it" 0 "$LEDGER" --db "$agent_url" ingest final.json
expect_eq pg-rls-ingest-status "the server holds the final one" ok "$(pg_sql "SELECT status FROM runs WHERE run_id = 'rls-run'")"
expect_code pg-rls-note-read "the read role cannot annotate" 3 "$LEDGER" --db "$digest_url" note rls-run hello
expect_match pg-rls-note-read-msg "permission denied, nothing stored" "$err" "permission denied for table annotations"
expect_eq pg-rls-note-none "and no annotation of it is on the server" 0 \
	"$(pg_sql "SELECT count(*) FROM annotations a JOIN runs r ON r.id = a.run WHERE r.run_id = 'rls-run'")"
expect_code pg-rls-note-after "the read role's replica is still usable" 0 "$LEDGER" --db "$digest_url" show rls-run

# ---- the replica: another ledger at the same URL, an entry that does not apply
RUNLEDGER_CACHE_DIR=$PWD/rep-again
pg_sql "CREATE DATABASE again" postgres >/dev/null
ua=$(printf '%s' "$PG_URL" | sed 's|/ledger?|/again?|')
"$LEDGER" --db "$ua" ingest "$FIXTURES/query/runs.jsonl" >/dev/null 2>&1
expect_eq pg-replica-one "one replica file for the URL" 1 "$(ls rep-again | grep -c '\.db$')"
rep=$(ls rep-again/*.db | head -1)
pg_sql "DROP DATABASE again" postgres >/dev/null
pg_sql "CREATE DATABASE again" postgres >/dev/null
expect_code pg-replica-other "the database made again: another ledger at the URL" 0 "$LEDGER" --db "$ua" ingest "$FIXTURES/ingest/single.json"
expect_match pg-replica-other-note "the replica is made again, saying so" "$err" "was of another ledger; making it again"
expect_code pg-replica-other-query "a query then" 0 "$LEDGER" --db "$ua" --format tsv query
expect_eq pg-replica-other-runs "shows the new ledger's one run" 1 "$(printf '%s\n' "$out" | tail -n +2 | wc -l)"
# a log entry that does not apply (the server's tables changed by hand in
# between): said, the replica made again from the tables, the answer right
"$LEDGER" --db "$ua" note "$(sql "$rep" "SELECT run_id FROM runs LIMIT 1")" first >/dev/null
sql "$rep" "UPDATE replica_meta SET value = value - 1 WHERE key = 'seq'"
expect_code pg-replica-conflict "an entry the replica already holds" 0 "$LEDGER" --db "$ua" --format tsv query
expect_match pg-replica-conflict-msg "is a warning naming it" "$err" "change log entry [0-9]+ does not apply to the local replica \(table annotations: a row it adds is there already\)"
expect_eq pg-replica-conflict-rows "and the replica holds the server's rows" \
	"$(pg_sql "SELECT count(*) FROM annotations" again)" "$(sql "$rep" "SELECT count(*) FROM annotations")"
expect_code pg-replica-conflict-after "the next command is quiet" 0 "$LEDGER" --db "$ua" query
expect_eq pg-replica-conflict-quiet "(nothing on stderr)" "" "$err"
