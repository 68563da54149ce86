#!/bin/sh
# kernels_campaign.sh — a kernel-efficiency campaign through the ledger, made
# by our own trainer on one GPU: search space impl.*, the baseline (the CUDA
# path's defaults) three times for the noise floor, then each impl.* variant
# once, every run the same fixed number of steps on the same batches, so
# val_bpb must not move beyond noise while tokens/s may.
#   sh bench/kernels_campaign.sh run BUILD DATA RUNS.jsonl     (on the GPU)
#   sh bench/kernels_campaign.sh report BUILD RUNS.jsonl OUTDIR (anywhere:
#        declares the campaign, ingests, audits, writes the campaign report)
# STEPS (default 40) and EVAL_TOKENS (default 2097152) size the runs: 40
# steps of 2^19 tokens at the default shape take 15-25 s on an H200.
set -eu
what=$1 BUILD=$2
CAMPAIGN=gpu-impl-efficiency
STEPS=${STEPS:-40}
EVAL_TOKENS=${EVAL_TOKENS:-2097152}

run_all() { # DATA RUNS
	data=$1 runs=$2 base=
	one() { # DESCRIPTION [key=value...]
		desc=$1; shift
		"$BUILD/trainer" data.path="$data" train.device=cuda train.steps="$STEPS" \
			train.eval_tokens="$EVAL_TOKENS" "$@" --record "$runs" --campaign "$CAMPAIGN" \
			--agent kernels_campaign.sh --description "$desc" ${base:+--parent "$base"} \
			>/dev/null 2>run.err || { echo "run failed: $desc" >&2; tail -n 3 run.err >&2; }
		tail -n 1 "$runs" | grep -o '"tokens_per_second":[0-9.e+]*' | sed "s|^|$desc: |"
	}
	one "baseline: the CUDA path's defaults"
	base=$(tail -n 1 "$runs" | sed 's/.*"run_id":"\([^"]*\)".*/\1/')
	one "baseline (repeat)"
	one "baseline (repeat)"
	# the rotary epilogue writes flash's packed q, k, v: with naive
	# attention impl.rotary resolves to kernel, a second change the audit
	# will (rightly) see in this run
	one "attention flash -> naive (rotary epilogue -> kernel with it)" impl.attention=naive
	one "fused_adamw true -> false" impl.fused_adamw=false
	one "fused_xent true -> false" impl.fused_xent=false
	one "cuda_graphs false -> true" impl.cuda_graphs=true
	one "compile_mode heuristic -> autotune" impl.compile_mode=autotune
	one "recompute false -> true" impl.recompute=true
	one "relu2 epilogue -> kernel" impl.relu2=kernel
	one "rotary epilogue -> kernel" impl.rotary=kernel
	one "gemm wgmma -> cublaslt" impl.gemm=cublaslt
}

report() { # RUNS OUTDIR
	runs=$1 out=$2 db=$(mktemp -u).db
	base=$(head -n 1 "$runs" | sed 's/.*"run_id":"\([^"]*\)".*/\1/')
	"$BUILD/ledger" --db "$db" init >/dev/null
	printf '{"name":"%s","metric":"val_bpb","direction":"min","hardware":"H200","baseline":"%s",%s\n' \
		"$CAMPAIGN" "$base" '"search_space":["impl.*"],"record_budget":13,"description":"kernel efficiency: impl.* only, fixed steps"}' \
		>"$db.json"
	"$BUILD/ledger" --db "$db" ingest "$runs" >/dev/null
	"$BUILD/ledger" --db "$db" campaign add "$db.json" >/dev/null
	mkdir -p "$out"
	"$BUILD/ledger" --db "$db" audit --campaign "$CAMPAIGN" >"$out/audit.txt" || true
	"$BUILD/report" --db "$db" campaign --campaign "$CAMPAIGN" --out "$out" >/dev/null || true
	cp "$runs" "$out/runs.jsonl"
	rm -f "$db" "$db.json" "$db-wal" "$db-shm"
}

case $what in
run) run_all "$3" "$4" ;;
report) report "$3" "$4" ;;
*) echo "usage: sh bench/kernels_campaign.sh run BUILD DATA RUNS | report BUILD RUNS OUTDIR" >&2; exit 2 ;;
esac
