# t-ledger-frontier.sh — `ledger frontier` on the query fixture: the runs
# that moved the running best per class, with deltas worked out by hand;
# --by tier merging classes; --metric/--maximize; filters; untimed runs last;
# JSON shape; crash/nan runs never counted; usage errors.
. "$ROOT/tests/lib.sh"
need sqlite3 sqlite3
cp "$FIXTURES/query/runs.jsonl" . || exit 1
"$LEDGER" ingest runs.jsonl >/dev/null 2>&1 || { not_ok ledger-frontier-0 "fixture ingests"; exit 1; }

# Sections 1-5 take every valid run, discarded or not (--all); section 7
# is the default, which follows kept runs.
# 1: by class. By hand, in time order:
#   H100:     base 1.010 (first), d9 1.005 (-0.005), d12 crash (skipped),
#             lr 1.007 (no), mlr5 0.999 (-0.006)
#   RTX 3090: a 1.100 (first), b 1.104 (no), c 1.098 (-0.002),
#             sdpa 1.095 (-0.003), nan run (skipped)
#   A100:     base 1.050 (first), d10 1.045 (-0.005), then the untimed
#             a100-late 1.030 (-0.015) after every timed run
#   RTX 4090: a 1.090 (first), wd 1.093 (no)
expect_code ledger-frontier-1.1 "frontier exits 0" 0 "$LEDGER" frontier --all
expect_eq ledger-frontier-1.2 "frontier table" "$(cat <<'EOT'
run_id      hardware  val_bpb   delta      agent  description                              finished_at
h100-base   H100      1.010000             alice  baseline                                 2026-03-16T04:05:30Z
r3090-a     RTX 3090  1.100000             bob    baseline on the 3090                     2026-03-16T04:15:30Z
h100-d9     H100      1.005000  -0.005000  alice  depth 8 -> 9                             2026-03-16T04:25:30Z
a100-base   A100      1.050000             carol  A100 baseline                            2026-03-16T04:45:30Z
r4090-a     RTX 4090  1.090000             dave   4090 baseline                            2026-03-16T04:55:30Z
r3090-c     RTX 3090  1.098000  -0.002000  bob    baseline on the 3090, repeat 2           2026-03-16T05:15:30Z
r3090-sdpa  RTX 3090  1.095000  -0.003000  bob    attention sdpa instead of flash          2026-03-17T01:05:30Z
h100-mlr5   H100      0.999000  -0.006000  alice  matrix LR 0.04 to 0.05                   2026-03-17T02:05:30Z
a100-d10    A100      1.045000  -0.005000  carol  depth 8 -> 10                            2026-03-17T04:05:30Z
a100-late   A100      1.030000  -0.015000  carol  embedding LR 0.6 to 0.7 (clock unknown)
EOT
)" "$out"

# 2: JSON: an array of objects with the contract's keys; numbers, nulls
expect_eq ledger-frontier-2.1 "frontier json (H100)" "$(cat <<'EOT'
[
  {
    "run_id": "h100-base",
    "hardware": "H100",
    "val_bpb": 1.01,
    "delta": null,
    "agent": "alice",
    "description": "baseline",
    "finished_at": "2026-03-16T04:05:30Z"
  },
  {
    "run_id": "h100-d9",
    "hardware": "H100",
    "val_bpb": 1.005,
    "delta": -0.005,
    "agent": "alice",
    "description": "depth 8 -> 9",
    "finished_at": "2026-03-16T04:25:30Z"
  },
  {
    "run_id": "h100-mlr5",
    "hardware": "H100",
    "val_bpb": 0.999,
    "delta": -0.006,
    "agent": "alice",
    "description": "matrix LR 0.04 to 0.05",
    "finished_at": "2026-03-17T02:05:30Z"
  }
]
EOT
)" "$("$LEDGER" frontier --all --hardware H100 --format json)"
"$LEDGER" frontier --all --format json >all.json
expect_eq ledger-frontier-2.2 "untimed run: finished_at null, still listed" "a100-late|1.03|-0.015|1" \
	"$(sql ledger.db "SELECT json_extract(value,'\$.run_id') || '|' || json_extract(value,'\$.val_bpb') || '|' ||
		json_extract(value,'\$.delta') || '|' || (json_type(value,'\$.finished_at') = 'null')
		FROM json_each(readfile('all.json')) WHERE key = 9")"

# 3: by tier, RTX 3090 and RTX 4090 share "medium": r4090-a (1.090) beats
# r3090-a (1.100) by -0.010, and the later 3090 runs (1.098, 1.095) no
# longer move it
expect_eq ledger-frontier-3.1 "frontier --by tier" "$(cat <<'EOT'
run_id	tier	hardware	val_bpb	delta
h100-base	xl	H100	1.010000	
r3090-a	medium	RTX 3090	1.100000	
h100-d9	xl	H100	1.005000	-0.005000
a100-base	large	A100	1.050000	
r4090-a	medium	RTX 4090	1.090000	-0.010000
h100-mlr5	xl	H100	0.999000	-0.006000
a100-d10	large	A100	1.045000	-0.005000
a100-late	large	A100	1.030000	-0.015000
EOT
)" "$("$LEDGER" frontier --all --by tier --format tsv | cut -f1-5)"

# 4: another metric, higher is better (mfu_percent, read from the record):
#   H100 38.2 then 38.4 (+0.2); 3090 41.0 then 41.1 (+0.1); A100 44.5;
#   4090 46.3; the nan run's record has no mfu and is not ok anyway
expect_eq ledger-frontier-4.1 "--metric mfu_percent --maximize" "$(cat <<'EOT'
run_id	hardware	mfu_percent	delta
h100-base	H100	38.2	
r3090-a	RTX 3090	41	
a100-base	A100	44.5	
r4090-a	RTX 4090	46.3	
r3090-c	RTX 3090	41.1	0.1
h100-mlr5	H100	38.4	0.2
EOT
)" "$("$LEDGER" frontier --all --metric mfu_percent --maximize --format tsv | cut -f1-4)"

# 5: filters decide which runs compete
ids() { "$LEDGER" frontier --all --format tsv "$@" | tail -n +2 | cut -f1 | tr '\n' ' ' | sed 's/ $//'; }
expect_eq ledger-frontier-5.1 "--agent" "r3090-a r3090-c r3090-sdpa" "$(ids --agent bob)"
expect_eq ledger-frontier-5.2 "--since drops the early bests" "r3090-sdpa h100-mlr5 a100-d10 r4090-wd" "$(ids --since 2026-03-17)"
expect_eq ledger-frontier-5.3 "--status crash: no valid measurement, empty" "" "$(ids --status crash)"
expect_eq ledger-frontier-5.4 "--where bounds the candidates" "h100-mlr5" "$(ids --where 'val_bpb<1.0')"

# 6: usage and empty ledger
expect_code ledger-frontier-6.1 "--by unknown" 2 "$LEDGER" frontier --by gpu
expect_match ledger-frontier-6.1m "message" "$err" "^ledger: frontier: --by 'gpu' is not a grouping"
expect_code ledger-frontier-6.2 "--metric with a quote" 2 "$LEDGER" frontier --metric "val'bpb"
expect_code ledger-frontier-6.3 "stray argument" 2 "$LEDGER" frontier H100
"$LEDGER" --db empty.db init >/dev/null
expect_code ledger-frontier-6.4 "empty ledger: exit 0" 0 "$LEDGER" --db empty.db frontier --format json
expect_eq ledger-frontier-6.5 "empty ledger: empty array" "[]" "$out"

# 7: the default follows what was kept, as autoresearch's analysis does:
# r3090-c (1.098) was discarded, so r3090-sdpa (keep, 1.095) moves the 3090
# frontier from r3090-a's 1.100 by -0.005; r4090-wd (discard) never counts
expect_eq ledger-frontier-7.1 "discarded runs do not move the frontier" \
	"h100-base r3090-a h100-d9 a100-base r4090-a r3090-sdpa h100-mlr5 a100-d10 a100-late" \
	"$("$LEDGER" frontier --format tsv | tail -n +2 | cut -f1 | tr '\n' ' ' | sed 's/ $//')"
expect_eq ledger-frontier-7.2 "the kept run's delta is against the last kept best" "-0.005000" \
	"$("$LEDGER" frontier --hardware 'RTX 3090' --format tsv | awk -F'\t' '$1 == "r3090-sdpa" {print $4}')"
expect_eq ledger-frontier-7.3 "--since: the window's first kept run, not the discarded r4090-wd" "r3090-sdpa h100-mlr5 a100-d10" \
	"$("$LEDGER" frontier --since 2026-03-17 --format tsv | tail -n +2 | cut -f1 | tr '\n' ' ' | sed 's/ $//')"
