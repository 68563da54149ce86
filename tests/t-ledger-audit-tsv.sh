# t-ledger-audit-tsv.sh — the seed campaign again, this time from an
# autoresearch results.tsv whose descriptions carry the changes ("depth 8 to
# 9", "grad checkpointing + device batch 32 -> 64", "compile mode
# reduce-overhead"), so every change is inferred by the ingest.
# Test plan: ingest with --hardware and --campaign, declare the campaign
# with "first valid run" as baseline, and compare the audit's kind, runs,
# variables and values columns with the same findings the runrec/1 version
# gives (runs named R1..R10 in file order, since ids are the ingest's).
. "$ROOT/tests/lib.sh"
need sqlite3 sqlite3
A="$FIXTURES/audit"
export LEDGER_DB="$PWD/ledger.db"

"$LEDGER" ingest --hardware "NVIDIA GeForce RTX 3090" --campaign qwen-compile \
	"$A/seed-results.tsv" >stdout.txt 2>stderr.txt
rc=$?
expect_eq ledger-audit-tsv-0.1 "ingest the tsv" "0" "$rc"
expect_eq ledger-audit-tsv-0.2 "ten runs" "10" "$(sql ledger.db "SELECT count(*) FROM runs")"

cat >campaign.json <<'EOF'
{"name":"qwen-compile","hardware":"RTX 3090","baseline":"first valid run",
 "search_space":["impl.*"],"record_budget":10}
EOF
"$LEDGER" campaign add campaign.json >/dev/null

# the ingest names the runs; call them R1..R10 in file order
sql ledger.db "SELECT run_id FROM runs ORDER BY id" | awk '{printf "s/%s/R%d/g\n", $0, NR}' >names.sed

expect_code ledger-audit-tsv-1.0 "audit with findings exits 1" 1 "$LEDGER" audit --campaign qwen-compile --format tsv
got=$(printf '%s\n' "$out" | cut -f2,4,5,7 | sed -f names.sed)
want=$(cat <<'EOF'
kind	runs	variables	values
no_improvement	R1, R4		baseline=1.245730;compared=6;best=1.312003
budget			records=10;budget=10;out_of_scope=7;invalid=3;both=1;in_scope_valid=0;keeps=1;discards=6;crashes=3;keep_rate=0.142857
out_of_scope	R2, R3, R4, R5, R6	model.depth	n_runs=5
out_of_scope	R7, R8	train.device_batch_size	n_runs=2
confounded	R7, R8	impl.recompute, train.device_batch_size	n_runs=2;valid=1
unresolved	R9	impl.compile_mode	attempts=1
unresolved	R10	impl.compile_mode	attempts=1
duplicate_attempt	R2, R3, R4, R5	model.depth	attempts=4;after_measured=3;measured=1.313253
duplicate_attempt	R7, R8	impl.recompute, train.device_batch_size	attempts=2;after_measured=1;measured=1.355166
repeat_noise	R2, R3, R4, R5	model.depth	n=4;mean=1.313047;sd=0.000703;min=1.312003;max=1.313470;range=0.001467;failed=0
noise_floor			floor=0.001406;pooled_sd=0.000703;groups=1;n_runs=4
EOF
)
expect_eq ledger-audit-tsv-1.1 "inferred changes give the same findings as the records" "$want" "$got"
expect_match ledger-audit-tsv-1.2 "baseline is the first valid run" "$(printf '%s\n' "$out" | sed -f names.sed)" \
	"No run beat the baseline R1 \(val_bpb 1\.245730\) on RTX 3090"

# a search space may name variables as autoresearch's train.py does: DEPTH
# is model.depth, so the depth runs are in scope and only the device batch
# (changed with recompute) is out of it
cat >by-constant.json <<'EOF2'
{"name":"by-constant","hardware":"RTX 3090","baseline":"first valid run",
 "search_space":["impl.*", "DEPTH"],"record_budget":10}
EOF2
"$LEDGER" campaign add by-constant.json >/dev/null
"$LEDGER" campaign assign by-constant $(sql ledger.db "SELECT run_id FROM runs ORDER BY id") >/dev/null 2>&1
expect_code ledger-audit-tsv-9.1 "audit a campaign whose space names DEPTH" 1 \
	"$LEDGER" audit --campaign by-constant --kind out_of_scope --format tsv
expect_eq ledger-audit-tsv-9.2 "model.depth is in scope, the device batch is not" \
	"train.device_batch_size" "$(printf '%s\n' "$out" | sed 1d | cut -f5 | sort -u | paste -sd' ')"
