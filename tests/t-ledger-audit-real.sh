# t-ledger-audit-real.sh — the audit on a real autoresearch session
# (tests/fixtures/real/README.md says where it came from): the findings a
# person reading the log would agree with, and none that misquote it.
# Test plan: ingest with times, declare a campaign over the math knobs, and
# check the confounded findings: the runs that really changed two things,
# and a group of runs that moved the same two knobs to different values is
# told by its variables, never by one run's values.
. "$ROOT/tests/lib.sh"
need sqlite3 sqlite3
need jq jq
F="$FIXTURES/real/hsgngr-macos-results.tsv"
"$LEDGER" --db r.db ingest "$F" --hardware "Apple M3 Max" --campaign hsg \
	--started-at 2026-03-10T00:00:00Z >/dev/null 2>&1
expect_eq audit-real-1.1 "every row is a run" 20 "$(sql r.db 'SELECT count(*) FROM runs')"
cat >c.json <<'EOF2'
{"name":"hsg","hardware":"M3 Max","baseline":"first valid run",
 "search_space":["model.*","optim.*","sched.*","train.*"],"record_budget":30}
EOF2
"$LEDGER" --db r.db campaign add c.json >/dev/null
expect_code audit-real-2.1 "audit: findings" 1 "$LEDGER" --db r.db audit --campaign hsg --kind confounded --format json
batch=$(sql r.db "SELECT group_concat(run_id, ', ') FROM (SELECT run_id FROM runs
	WHERE description LIKE 'TOTAL_BATCH_SIZE=2^1_ DEVICE_BATCH_SIZE=%' ORDER BY id)")
row=$(printf '%s' "$out" | jq -r --arg b "$batch" '.[] | select((.runs | join(", ")) == $b) | .sentence')
expect_match audit-real-2.2 "the three batch runs are one confounded finding" "$row" 'changed .* together'
expect_eq audit-real-2.3 "told by their variables: each moved them to other values" \
	"$(printf '%s' "$batch" | sed 's/, \([^,]*\)$/ and \1/') changed train.device_batch_size + train.total_batch_size together (2 with a valid measurement): the effect of each is unknowable; test them one at a time." \
	"$row"

# 3: what the rows changed, as a reader of the log would write it down: a
# setting restated from the baseline ("dim=256" after "baseline: depth=4
# dim=256") is no change, so row 3 changed two knobs, not three
expect_eq audit-real-3.1 "row 3: HEAD_DIM=64 4 heads dim=256" "model.head_dim ? -> 64; model.heads ? -> 4" \
	"$(sql r.db "SELECT group_concat(var || ' ' || coalesce(old, '?') || ' -> ' || new, '; ') FROM
		(SELECT c.* FROM changes c JOIN runs r ON r.id = c.run WHERE r.description LIKE 'HEAD_DIM=64%' ORDER BY var)")"
expect_eq audit-real-3.2 "the baseline records no change" "0" \
	"$(sql r.db "SELECT count(*) FROM changes c JOIN runs r ON r.id = c.run WHERE r.description LIKE 'baseline:%'")"
expect_eq audit-real-3.3 "every change is inferred from the text, with its span" "0" \
	"$(sql r.db "SELECT count(*) FROM changes WHERE how <> 'inferred' OR span IS NULL")"

# 3b: row 2 "depth=8 dim=512 50M params" after "baseline: depth=4 dim=256":
# the old values are the parent's state (the text leaves them '?'), and the
# width follows the depth at the same 64 per layer (autoresearch: width =
# depth x ASPECT_RATIO), so it is one knob, not a confound. A made-up row
# that moves them at another ratio still is one; so is row 2 where the
# baseline states nothing (the old values unknown)
changes_of() { sql "$1" "SELECT group_concat(var || ' ' || coalesce(old, '?') || ' -> ' || new, '; ') FROM
	(SELECT c.* FROM changes c JOIN runs r ON r.id = c.run WHERE r.description LIKE '$2' ORDER BY var)"; }
confounded_with() { # DB RUN_ID: how many confounded findings name the run
	"$LEDGER" --db "$1" audit --campaign hsg --kind confounded --format json |
		jq --arg r "$2" '[.[] | select(.runs | index($r))] | length'; }
hsg_variant() { # DB FILE
	"$LEDGER" --db "$1" ingest "$2" --hardware "Apple M3 Max" --campaign hsg \
		--started-at 2026-03-10T00:00:00Z >/dev/null 2>&1
	"$LEDGER" --db "$1" campaign add c.json >/dev/null; }
expect_eq audit-real-3.4 "row 2: depth 4 -> 8, width 256 -> 512, the olds from the baseline's state" \
	"model.depth 4 -> 8; model.dim 256 -> 512" "$(changes_of r.db 'depth=8 dim=512%')"
expect_eq audit-real-3.5 "... and it is in no confounded finding" 0 \
	"$(confounded_with r.db "$(sql r.db "SELECT run_id FROM runs WHERE description LIKE 'depth=8 dim=512%'")")"
awk 'NR == 3 { print "c0ffee1\t1.9\t0.0\tdiscard\tdepth=8 dim=768 made up: 96 per layer" } { print }' "$F" >ratio.tsv
hsg_variant m.db ratio.tsv
expect_eq audit-real-3.6 "a made-up row at another ratio: depth 4 -> 8, width 256 -> 768" \
	"model.depth 4 -> 8; model.dim 256 -> 768" "$(changes_of m.db 'depth=8 dim=768%')"
expect_eq audit-real-3.7 "... is confounded; row 2 of the same file still is not" "1 0" \
	"$(confounded_with m.db "$(sql m.db "SELECT run_id FROM runs WHERE description LIKE 'depth=8 dim=768%'")") $(confounded_with m.db "$(sql m.db "SELECT run_id FROM runs WHERE description LIKE 'depth=8 dim=512%'")")"
awk -F'\t' 'BEGIN { OFS = "\t" } NR == 2 { $5 = "baseline" } { print }' "$F" >blind.tsv
hsg_variant b.db blind.tsv
expect_eq audit-real-3.8 "a baseline that states nothing: row 2's olds unknown" \
	"model.depth ? -> 8; model.dim ? -> 512" "$(changes_of b.db 'depth=8 dim=512%')"
expect_eq audit-real-3.9 "... and then it is two knobs, confounded" 1 \
	"$(confounded_with b.db "$(sql b.db "SELECT run_id FROM runs WHERE description LIKE 'depth=8 dim=512%'")")"
"$REPORT" --db r.db campaign --campaign hsg --out rep-hsg --no-charts >/dev/null 2>&1
expect_eq audit-real-3.10 "report campaign counts knobs the same way: the width is not asked for alone" \
	"Measured only together with other variables — test each alone: train.device\\_batch\\_size." \
	"$(grep '^Measured only together' rep-hsg/campaign-hsg.md)"

# --- two more sessions (tests/fixtures/real/README.md): each finding read
# against the rows. The campaign is the same declaration each time.
audit_session() { # DB FILE CAMPAIGN GPU
	"$LEDGER" --db "$1" ingest "$2" --hardware "$4" --campaign "$3" \
		--started-at 2026-03-10T00:00:00Z >/dev/null 2>&1
	printf '{"name":"%s","baseline":"first valid run","search_space":["model.*","optim.*","sched.*","train.*"],"record_budget":50}\n' "$3" |
		"$LEDGER" --db "$1" campaign add - >/dev/null
	"$LEDGER" --db "$1" audit --campaign "$3" --format json >"$1.json"
}
kinds() { jq -r --arg l "$2" '[.[] | select(.level == $l) | .kind] | join(" ")' "$1.json"; }
run_of() { sql "$1" "SELECT run_id FROM runs WHERE description LIKE '$2' ORDER BY id LIMIT 1"; }

# isque03-mlx: "add checkpoint saving …; no logic change, re-run confirms
# noise floor" measured its parent again (nothing the grammar reads, and
# the text says the training is unchanged); "more heads, head_dim 128 -> 64"
# is one knob (the head count is the width over head_dim); Newton-Schulz
# steps and value embeddings are knobs the registry lacks, not knobs
# outside the space
audit_session i.db "$FIXTURES/real/isque03-mlx-results.tsv" isq "Apple M4 Max"
rerun=$(run_of i.db 'add checkpoint saving%')
expect_eq audit-real-4.1 "isque03: 41 runs; the re-run shares its parent's repeat group" "41|2" \
	"$(sql i.db "SELECT count(*) FROM runs")|$(sql i.db "SELECT count(*) FROM runs WHERE repeat_key = (SELECT repeat_key FROM runs WHERE run_id = '$rerun')")"
pair=$(awk -F'\t' '$1 == "57a667a" || $1 == "07f4832" { v[n++] = $2 } END { d = v[0] - v[1]; if (d < 0) d = -d; printf "%.6f", 2 * d / sqrt(2) }' \
	"$FIXTURES/real/isque03-mlx-results.tsv")
expect_eq audit-real-4.2 "... the noise floor is that pair's (2 sd of 1.260380 and 1.261690), not unknown" \
	"info|$pair|1" "$(jq -r '.[] | select(.kind == "noise_floor") | "\(.level)|\(.values.floor | . * 1000000 | round / 1000000 | tostring)|\(.values.groups)"' i.db.json)"
expect_eq audit-real-4.3 "... one confounded run: the batch halving, not head_dim with its head count" \
	"$(run_of i.db 'halve total batch size%')" "$(jq -r '[.[] | select(.kind == "confounded") | .runs[]] | join(" ")' i.db.json)"
expect_eq audit-real-4.4 "... the unknown knobs are info, said as of unknown scope; nothing is out of scope" \
	"desc.ns_steps info|desc.value_embeddings info|0" \
	"$(jq -r '[.[] | select(.kind == "out_of_scope") | "\(.variables[0]) \(.level)"] | join("|")' i.db.json)|$(jq -r '.[] | select(.kind == "budget") | .values.out_of_scope' i.db.json)"
expect_match audit-real-4.5 "... the sentence says the scope cannot be told" \
	"$(jq -r '.[] | select(.kind == "out_of_scope") | .sentence' i.db.json)" \
	"^1 run changed desc\.ns_steps, a knob the variable registry does not know \(named from the description\), so whether it is inside the search space \(model\.\*, optim\.\*, sched\.\*, train\.\*\) cannot be told"
expect_eq audit-real-4.6 "... the discarded batch halving beat the kept frontier (1.336186 < 1.341363)" \
	"$(run_of i.db 'depth 4 -> 3') $(run_of i.db 'halve total batch size%')" \
	"$(jq -r '.[] | select(.kind == "discarded_improvement") | .runs | join(" ")' i.db.json)"
# the keeps whose gain over their parent (the pair's mean for the re-run's
# children) is below the floor: warmup, windows, LR 0.025, 0.03, re-check 0.04
expect_eq audit-real-4.7 "... within_noise: the five keeps that gained less than the floor" \
	"$(for d in 'add small LR warmup%' 'all-long attention%' 'Muon LR 0.02 -> 0.025' 'Muon LR 0.025 -> 0.03' 're-check Muon LR 0.04%'; do run_of i.db "$d"; done | tr '\n' ' ' | sed 's/ $//')" \
	"$(jq -r '[.[] | select(.kind == "within_noise") | .runs[0]] | join(" ")' i.db.json)"
expect_eq audit-real-4.8 "... no duplicate attempt: the re-checks came after the parent changed" "" \
	"$(jq -r '.[] | select(.kind == "duplicate_attempt") | .sentence' i.db.json)"
"$REPORT" --db i.db campaign --campaign isq --out rep --no-charts >/dev/null 2>&1
expect_match audit-real-4.9 "report campaign: the unknown knob's scope is 'unknown', not 'no'" \
	"$(cat rep/campaign-isq.md)" '^\| desc\.ns\\_steps \| unknown \| 1 \|'
expect_eq audit-real-4.10 "... head_dim counts as measured alone; only the device batch is asked for alone" \
	"Measured only together with other variables — test each alone: train.device\\_batch\\_size.|1" \
	"$(grep '^Measured only together' rep/campaign-isq.md)|$(grep -c '^| model\.\\\* | [0-9]* | [0-9]* | .*model\.head\\_dim' rep/campaign-isq.md)"

# dicefuji-macos: "raise ASPECT_RATIO from 64 to 80; model_dim goes from
# 256 to 384" is one knob (autoresearch's width is depth x aspect ratio);
# three learning rates lowered in one run is a true confound
audit_session d.db "$FIXTURES/real/dicefuji-macos-results.tsv" dic "Apple M1 Pro"
expect_eq audit-real-5.1 "dicefuji: 36 runs; the aspect-ratio run records both variables" \
	"36|model.aspect_ratio 64 -> 80; model.dim 256 -> 384" \
	"$(sql d.db "SELECT count(*) FROM runs")|$(sql d.db "SELECT group_concat(var || ' ' || old || ' -> ' || new, '; ') FROM (SELECT c.* FROM changes c JOIN runs r ON r.id = c.run WHERE r.description LIKE 'raise ASPECT_RATIO%' ORDER BY var)")"
expect_eq audit-real-5.2 "... one confounded finding: the three learning rates of one run" \
	"$(run_of d.db 'lower embedding, matrix, and scalar%')|optim.embedding_lr optim.matrix_lr optim.scalar_lr" \
	"$(jq -r '[.[] | select(.kind == "confounded")] | map("\(.runs | join(" "))|\(.variables | join(" "))") | join(";")' d.db.json)"
expect_eq audit-real-5.3 "... WEIGHT_DECAY 0.2 to 0.15 tried again after the parent changed: no duplicate" "" \
	"$(jq -r '.[] | select(.kind == "duplicate_attempt") | .sentence' d.db.json)"
expect_eq audit-real-5.4 "... warnings: only the confound and the unknown noise floor (nothing was repeated)" \
	"confounded noise_floor" "$(kinds d.db warn)"

# venkateshwar-m4-codex: 115 rows, most changing two or three knobs; the
# confounded runs are exactly the rows whose descriptions name two or more
# changes ("a->b, c->d", "… and …"), the unresolved ones the five crashes,
# and with nothing repeated the floor is unknown: no within_noise, and the
# report does not call the gain over the baseline "more than the noise floor"
V="$FIXTURES/real/venkateshwar-m4-codex-results.tsv"
audit_session v.db "$V" ven "Apple M4"
several=$(awk -F'\t' 'NR > 1 { n = gsub(/->/, "->", $5); if (n >= 2 || $5 ~ / and /) print $1 }' "$V" | sort | tr '\n' ' ')
flagged=$(jq -r '.[] | select(.kind == "confounded") | .runs[]' v.db.json | while read -r r; do
	sql v.db "SELECT code_commit FROM runs WHERE run_id = '$r'"; done | sort | tr '\n' ' ')
expect_eq audit-real-6.1 "venkateshwar: confounded = the rows that name two or more changes ($(printf '%s' "$several" | wc -w))" \
	"$several" "$flagged"
expect_eq audit-real-6.2 "... unresolved = the crash rows" \
	"$(awk -F'\t' '$4 == "crash" { print $1 }' "$V" | sort | tr '\n' ' ')" \
	"$(jq -r '.[] | select(.kind == "unresolved") | .runs[]' v.db.json | while read -r r; do
		sql v.db "SELECT code_commit FROM runs WHERE run_id = '$r'"; done | sort | tr '\n' ' ')"
expect_eq audit-real-6.3 "... and nothing else but the budget and the unknown floor" "budget noise_floor" \
	"$(jq -r '[.[] | select(.kind != "confounded" and .kind != "unresolved") | .kind] | join(" ")' v.db.json)"
"$REPORT" --db v.db campaign --campaign ven --out rep --no-charts >/dev/null 2>&1
expect_match audit-real-6.4 "report campaign: the gain over the baseline is not called beyond an unknown floor" \
	"$(cat rep/campaign-ven.md)" '^\*\*Something beat the baseline\*\*: .* by [0-9.]+; the noise floor is unknown \(no run was repeated and no noise_default is declared\), so whether that is more than noise cannot be told: repeat the baseline\.$'
expect_no_match audit-real-6.5 "... and never 'more than the noise floor'" "$(cat rep/campaign-ven.md)" 'more than the noise floor'

# aroughidea-winrtx: rows of status 'missing' (planned, never run) are
# refused with file:line, the rest go in with their times; "depth 6->7
# aspect_ratio 64->54" moved the depth at a fixed width (6 x 64 = 384 and
# 7 x 54 = 378, which train.py rounds up to 384): one knob, as depth 12 ->
# 14 at ratio 64 -> 54 in section 12 (before, both were confounded: the
# ratio alone at depth 6 gives the same 384, so "test them one at a time"
# had nothing to test); "muon ramp" / "muon warmup" is one knob the
# registry lacks, of unknown scope
A="$FIXTURES/real/aroughidea-winrtx-results.tsv"
"$LEDGER" --db a.db ingest "$A" --hardware "RTX 4000 Ada" --campaign aro >stdout.txt 2>stderr.txt
expect_eq audit-real-7.1 "aroughidea: the 'missing' rows quarantined, each said, the rest timed" \
	"$(grep -c '	missing	' "$A")|$(grep -c "status 'missing' is not keep, discard or crash" stderr.txt)|$(($(wc -l <"$A") - 1 - $(grep -c '	missing	' "$A")))|0" \
	"$(sql a.db "SELECT count(*) FROM quarantine")|$(grep -c "status 'missing' is not keep, discard or crash" stderr.txt)|$(sql a.db "SELECT count(*) FROM runs")|$(sql a.db "SELECT count(*) FROM runs WHERE t_finished IS NULL")"
printf '{"name":"aro","baseline":"first valid run","search_space":["model.*","optim.*","sched.*","train.*"],"record_budget":60}\n' |
	"$LEDGER" --db a.db campaign add - >/dev/null
"$LEDGER" --db a.db audit --campaign aro --format json >a.db.json
expect_eq audit-real-7.2 "... warnings: only the unknown floor (depth 6 -> 7 at the same width is one knob)" \
	"noise_floor" \
	"$(jq -r '[.[] | select(.level == "warn" and .kind != "budget") | "\(.kind)\(if .kind == "confounded" then " " + (.runs | join(" ")) else "" end)"] | join("|")' a.db.json)"
expect_eq audit-real-7.3 "... the muon momentum warmup is one knob of unknown scope, in its three runs" \
	"info desc.muon_momentum_warmup_steps 3" \
	"$(jq -r '.[] | select(.kind == "out_of_scope") | "\(.level) \(.variables[0]) \(.runs | length)"' a.db.json)"

# 8: hsgngr again, audited over the whole file: "FINAL_LR_FRAC=0.1 —
# battery throttle 546 steps invalid" and "WARMDOWN_RATIO=0.7 — still
# battery throttle 650 steps invalid" are discards their author calls
# invalid; the same two changes retried on the power adapter are their
# first valid measurements, not duplicates, and throttled values are no
# noise: the floor is the verification pair's (rows 6 and 15)
audit_session h.db "$F" hsg2 "Apple M3 Max"
expect_eq audit-real-8.1 "hsgngr: the two runs called invalid: status invalid, decision and value as written" \
	"invalid|discard|1.407629|invalid|discard|1.390246" \
	"$(sql h.db "SELECT group_concat(status || '|' || decision || '|' || json_extract(record, '\$.metrics.val_bpb'), '|') FROM (SELECT * FROM runs WHERE description LIKE '%throttle%invalid' ORDER BY id)")"
expect_eq audit-real-8.2 "... no duplicate_attempt, no within_noise" "" \
	"$(jq -r '.[] | select(.kind == "duplicate_attempt" or .kind == "within_noise") | .sentence' h.db.json)"
vpair=$(awk -F'\t' 'NR == 7 || $5 ~ /^verification run/ { v[n++] = $2 } END { d = v[0] - v[1]; if (d < 0) d = -d; printf "%.6f", 2 * d / sqrt(2) }' "$F")
expect_eq audit-real-8.3 "... the floor is the verification pair's ($vpair), from one group" "$vpair|1" \
	"$(jq -r '.[] | select(.kind == "noise_floor") | "\(.values.floor | . * 1000000 | round / 1000000 | tostring)|\(.values.groups)"' h.db.json)"

# 9: ishan-pgolf: "HEAD_DIM=64 12 heads" is one knob (768 wide: 12 heads
# of 64 follow); "4L 768w" and "6L 768w" moved depth and width apart from
# the aspect ratio (8L 512w before): two knobs, confounded; so is "batch
# 2^17 device_bs=64"; nothing else warns but the unknown floor
audit_session p.db "$FIXTURES/real/ishan-pgolf-results.tsv" ish "NVIDIA H100 80GB HBM3"
expect_eq audit-real-9.1 "ishan: the confounded runs, by their descriptions" \
	"4L 768w shallower wider model (worse than 8L 512w)|6L 768w wider model with SwiGLU|batch 2^17 device_bs=64 (marginal, more noise)" \
	"$(jq -r '.[] | select(.kind == "confounded") | .runs[]' p.db.json | while read -r r; do
		sql p.db "SELECT description FROM runs WHERE run_id = '$r'"; done | paste -sd'|')"
expect_eq audit-real-9.2 "... the head_dim run changed head_dim and heads, and is not among them" \
	"model.head_dim ? -> 64; model.heads ? -> 12|0" \
	"$(sql p.db "SELECT group_concat(var || ' ' || coalesce(old, '?') || ' -> ' || new, '; ') FROM (SELECT c.* FROM changes c JOIN runs r ON r.id = c.run WHERE r.description LIKE 'HEAD_DIM=64%' ORDER BY var)")|$(jq -r --arg r "$(run_of p.db 'HEAD_DIM=64%')" '[.[] | select(.kind == "confounded" and (.runs | index($r)))] | length' p.db.json)"
expect_eq audit-real-9.3 "... warnings: the confounds and the unknown floor" "confounded confounded noise_floor" "$(kinds p.db warn)"

# 10: elemcoll-qwen35 (an LLM agent's session, wider layout): over a space
# without impl.*, activation checkpointing and the compile mode are out of
# scope (true: registry knobs the declaration leaves out); the one crash is
# unresolved; nothing repeated
audit_session q.db "$FIXTURES/real/elemcoll-qwen35-results.tsv" qw "NVIDIA GeForce RTX 5090"
expect_eq audit-real-10.1 "qwen35: warnings, each true of the rows" \
	"budget|out_of_scope impl.recompute 2|out_of_scope impl.compile_mode 1|unresolved optim.beta1 1|noise_floor" \
	"$(jq -r '[.[] | select(.level == "warn") | if .kind == "budget" or .kind == "noise_floor" then .kind else "\(.kind) \(.variables | join(",")) \(.runs | length)" end] | join("|")' q.db.json)"

# 11: anaclumos-pgolf: its first row failed (no baseline measured); the
# three crashes after it changed that configuration and are unresolved, as
# is the INT8_CLIP_Q run that timed out; nothing was repeated. Row 22,
# status size_violation ("improved bpb but exceeded decimal 16 MB cap at
# 16.06 MB"), was measured at 2.177329 but may not stand: stored as status
# invalid, decision discard, its value in the record only; before, it was
# refused at ingest. It is neither unresolved (its effect is known) nor a
# crash in the keep rate (a discard), and never on the frontier.
audit_session g.db "$FIXTURES/real/anaclumos-pgolf-results.tsv" ana "NVIDIA H100 80GB HBM3"
expect_eq audit-real-11.1 "anaclumos: unresolved = the four failed attempts after the first row" \
	"$(awk -F'\t' 'NR > 2 && $4 == "crash" { print $2 }' "$FIXTURES/real/anaclumos-pgolf-results.tsv" | paste -sd' ')|4" \
	"$(jq -r '[.[] | select(.kind == "unresolved") | .runs[]] | .[]' g.db.json | while read -r r; do sql g.db "SELECT code_commit FROM runs WHERE run_id = '$r'"; done | paste -sd' ')|$(jq '[.[] | select(.kind == "unresolved")] | length' g.db.json)"
expect_eq audit-real-11.2 "... warnings: the budget, those four and the unknown floor; 5 without a valid measurement" \
	"budget unresolved unresolved unresolved unresolved noise_floor|5" \
	"$(kinds g.db warn)|$(jq -r '.[] | select(.kind == "budget") | .values.invalid' g.db.json)"
sv=$(sql g.db "SELECT run_id FROM runs WHERE json_extract(record, '$.experiment') IS NULL AND json_extract(record, '$.metrics.experiment') = 21")
expect_eq audit-real-11.3 "... the size violation: stored, invalid, a discard, its value in the record, not in val_bpb" \
	"invalid|discard||2.17732936" \
	"$(sql g.db "SELECT status || '|' || decision || '|' || coalesce(val_bpb, '') || '|' || json_extract(record, '$.metrics.val_bpb') FROM runs WHERE run_id = '$sv'")"
expect_eq audit-real-11.4 "... keep rate 14/20: 14 kept, 6 discarded (5 reverted + the size violation), 5 crashes; 1 inadmissible" \
	"14 6 5 1" "$(jq -r '.[] | select(.kind == "budget") | "\(.values.keeps) \(.values.discards) \(.values.crashes) \(.values.inadmissible)"' g.db.json)"
expect_eq audit-real-11.5 "... named only where it changed EMA_DECAY (info), and not on the frontier (best 2.186513 of row 24, not 2.177329)" \
	"info out_of_scope desc.ema_decay|2.186513" \
	"$(jq -r --arg r "$sv" '[.[] | select(.runs | index($r)) | "\(.level) \(.kind) \(.variables | join(","))"] | join("|")' g.db.json)|$("$LEDGER" --db g.db frontier --format tsv | tail -n 1 | cut -f3)"

# 12: djordje-rtx5070 (tests/fixtures/real/README.md): 66 rows on an RTX
# 5070, each description a change, its hypothesis and its result
# ("val_bpb 1.283→1.341 WORSE"). Read against the rows by hand:
# - "DEPTH 12→14 at same 768 dim (ASPECT_RATIO 64→54, 215M params)" and
#   "DEPTH 12→14 same 768 dim (AR 64→54 …)" measured depth at a fixed
#   width (14 x 54 = 756, rounded up to 768 by train.py): one knob, not
#   confounded. Before, both were "test them one at a time" (false);
# - confounded and true: "constant WD (remove decay) + WARMDOWN_RATIO
#   0.4→0.3" and "grad clip max_norm=1.0 + WARMDOWN_RATIO=0.4";
# - unresolved and true: weight tying (crash), compile mode=reduce-overhead
#   (crash), MXFP4 (SKIPPED: invalid), Gated DeltaNet (HUNG: timeout);
# - keep rate 19 of 59, 7 without a valid measurement; nothing repeated.
D="$FIXTURES/real/djordje-rtx5070-results.tsv"
audit_session j.db "$D" dj "NVIDIA GeForce RTX 5070"
commits_of() { # DB KIND: the commits of the kind's findings' runs, sorted
	jq -r --arg k "$2" '.[] | select(.kind == $k) | .runs[]' "$1.json" | while read -r r; do
		sql "$1" "SELECT code_commit FROM runs WHERE run_id = '$r'"; done | sort -u | paste -sd' '; }
expect_eq audit-real-12.1 "djordje: 66 runs, nothing quarantined" "66|0" \
	"$(sql j.db "SELECT count(*) FROM runs")|$(sql j.db "SELECT count(*) FROM quarantine")"
expect_eq audit-real-12.2 "... depth 12 -> 14 at the same width: aspect ratio 64 -> 54 recorded, yet one knob" \
	"model.aspect_ratio 64 -> 54; model.depth 12 -> 14|0" \
	"$(changes_of j.db 'DEPTH 12→14 at same 768 dim%')|$(jq '[.[] | select(.kind == "confounded") | .runs[]] | map(select(. == "'"$(run_of j.db 'DEPTH 12→14 at same 768 dim%')"'" or . == "'"$(run_of j.db 'DEPTH 12→14 same 768 dim%')"'")) | length' j.db.json)"
expect_match audit-real-12.3 "... the two runs that changed two things are confounded" \
	"$(commits_of j.db confounded)" '0708cec.*81dd182'
expect_match audit-real-12.4 "... weight tying, reduce-overhead, MXFP4 (skipped) and Gated DeltaNet (hung) are unresolved" \
	"$(commits_of j.db unresolved)" '056d498 .*7b1c5a1 7d8719c .*ef1b0c7'
expect_eq audit-real-12.5 "... keep rate 19/59, 7 without a valid measurement; the floor unknown (nothing repeated)" \
	"19 40 7|warn" \
	"$(jq -r '.[] | select(.kind == "budget") | "\(.values.keeps) \(.values.discards) \(.values.crashes)"' j.db.json)|$(jq -r '.[] | select(.kind == "noise_floor") | .level' j.db.json)"
# a made-up row moving depth and ratio apart (12 x 64 = 768 to 14 x 72 =
# 1008, rounded to 1024): two knobs, still confounded
awk 'NR == 36 { print "c0ffee2\t1.3\t5.5\t55.0\t30000\t500\t250.0\t4\t3.2\tdiscard\tDEPTH 12→14 ASPECT_RATIO 64→72 made up" } { print }' "$D" >wider.tsv
audit_session w.db wider.tsv dj "NVIDIA GeForce RTX 5070"
expect_eq audit-real-12.6 "... a made-up row at another width (depth 12 -> 14, ratio 64 -> 72) is confounded" \
	"model.aspect_ratio 64 -> 72; model.depth 12 -> 14|1" \
	"$(changes_of w.db '%made up')|$(jq '[.[] | select(.kind == "confounded") | .runs[]] | map(select(. == "'"$(run_of w.db '%made up')"'")) | length' w.db.json)"
expect_eq audit-real-12.7 "... ledger compare shows mfu 80.0 as 80, not 8e+01" "80" \
	"$("$LEDGER" --db j.db compare "$(run_of j.db 'Dynamic grad_accum%')" --format tsv | awk -F'\t' '$2 == "mfu_percent" { print $3 }')"
"$REPORT" --db g.db campaign --campaign ana --out rep-ana --no-charts >/dev/null 2>&1
expect_eq audit-real-11.6 "anaclumos: report campaign counts the size violation apart, so the parts add up to 25" \
	"- Records: 25 of a budget of 50 (19 valid and in scope, 0 out of scope, 5 without a valid measurement, 1 measured but not admissible)" \
	"$(grep '^- Records' rep-ana/campaign-ana.md)"

# 13: bervaso-macos (tests/fixtures/real/README.md): 25 rows with "expN:"
# labels and "[radical]" / "[combo]" tags. Every finding read against the
# rows is true: "5% warmup + warmdown 0.5->0.3" changed two things; weight
# tying crashed and was never measured; nothing was repeated; keep rate
# 6 of 24. "HEAD_DIM 128->64 (4 heads …)" is one knob (heads follow).
audit_session bv.db "$FIXTURES/real/bervaso-macos-results.tsv" bv "Apple M4 Max"
expect_eq audit-real-13.1 "bervaso: warnings, each true of the rows" \
	"budget|confounded 283a210|unresolved fe6c00e|noise_floor" \
	"$(jq -r '.[] | select(.level == "warn") | if (.runs | length) == 1 then "\(.kind) \(.runs[0])" else .kind end' bv.db.json |
		while read -r k r; do if [ -n "$r" ]; then printf '%s %s\n' "$k" "$(sql bv.db "SELECT code_commit FROM runs WHERE run_id = '$r'")"; else echo "$k"; fi; done | paste -sd'|')"
expect_eq audit-real-13.2 "... keep rate 6/24, 1 crash; the head_dim run one knob" "6 18 1|model.head_dim 128 -> 64; model.heads ? -> 4|0" \
	"$(jq -r '.[] | select(.kind == "budget") | "\(.values.keeps) \(.values.discards) \(.values.crashes)"' bv.db.json)|$(changes_of bv.db 'exp4:%')|$(jq '[.[] | select(.kind == "confounded") | .runs[]] | map(select(. == "'"$(run_of bv.db 'exp4:%')"'")) | length' bv.db.json)"

# 14: changhan-moe (tests/fixtures/real/README.md): 19 rows, a wide layout
# of prose columns (hypothesis, expected_result, interpretation, …: not
# numeric, said once each and not stored). Read against the rows: the
# three rows "Aborted before validation" / "at step 727" / "at step 600"
# say discard with val_bpb 0.000000: no measurement, stored invalid, and
# their changes are unresolved (true); the statuses 'tentative' and
# 'repair' are measured rows whose decision was not taken: stored with
# status ok and no decision (round 9; they were refused with file:line),
# so they are neither keeps nor discards: keep rate 10 of 14; nothing
# repeated.
"$LEDGER" --db ch.db ingest "$FIXTURES/real/changhan-moe-results.tsv" --hardware "NVIDIA H100 80GB HBM3" --campaign ch \
	--started-at 2026-03-10T00:00:00Z >/dev/null 2>ch.err
printf '{"name":"ch","baseline":"first valid run","search_space":["model.*","optim.*","sched.*","train.*"],"record_budget":50}\n' |
	"$LEDGER" --db ch.db campaign add - >/dev/null
"$LEDGER" --db ch.db audit --campaign ch --format json >ch.db.json
expect_eq audit-real-14.1 "changhan: 19 runs, the tentative and repair rows measured with no decision, nothing refused" \
	"19|0|e1f81c1 ok - 0.954935|af12d68 ok - 0.943786" \
	"$(sql ch.db "SELECT count(*) FROM runs")|$(sql ch.db "SELECT count(*) FROM quarantine")|$(sql ch.db "SELECT code_commit || ' ' || status || ' ' || coalesce(decision, '-') || ' ' || val_bpb FROM runs WHERE code_commit IN ('e1f81c1', 'af12d68') ORDER BY code_commit DESC" | paste -sd'|')"
expect_eq audit-real-14.2 "... unresolved: the three aborted rows; keep rate 10/14, 3 without a measurement" \
	"523dc00 7392e4d 9c582bf|10 4 3" \
	"$(commits_of ch.db unresolved)|$(jq -r '.[] | select(.kind == "budget") | "\(.values.keeps) \(.values.discards) \(.values.crashes)"' ch.db.json)"
expect_eq audit-real-14.3 "... warnings: the budget, those three and the unknown floor" \
	"budget unresolved unresolved unresolved noise_floor" "$(kinds ch.db warn)"
# the same arithmetic where users compare (issue 9 item 7): ledger summary
# and the daily digest count the size violation as a discard, not a crash
# (before: 14/19 = 73.7% with 6 crashes in summary; the digest left it out)
expect_eq audit-real-11.7 "anaclumos: ledger summary keeps the audit's keep rate: 14 kept, 6 discarded, 5 crashes" \
	"14 6 5 0.7" "$("$LEDGER" --db g.db summary --campaign ana --format json | jq -r '"\(.n_keeps) \(.n_discards) \(.n_crashes) \(.keep_rate)"')"
"$REPORT" --db g.db daily --date 2026-04-04 --out day-ana --no-charts >/dev/null 2>&1
expect_match audit-real-11.8 "... and the digest of its day counts it among the discards" \
	"$(cat day-ana/2026-04-04.md)" '^10 runs by 1 agent on 1 hardware class: 7 kept, 3 discarded \(keep rate 70%, the baseline counted as a keep\), 0 without a valid measurement\.$'
