#!/bin/sh
# gpu_round.sh — one device call of a performance round, run on the GPU
# machine from the repository root: the binaries and libraries come in a
# carried folder (DIR, default .gpu/r7) holding bin/ (bench_kernels,
# bench_kernels_model, trainer, libcupti_trace.so, ledger) and the Debian
# packages they need (*.deb, unpacked into /tmp/pfx), and optionally
# torch/ (bench.py, model.py) and ncu_categories.py, used instead of the
# tree's when the tree the call runs in holds older ones. Logs go to $OUT.
#   sh bench/gpu_round.sh PARTS [DIR]
# PARTS, comma-separated, run in the order given:
#   checks   bench_kernels (flash checks), bench_kernels_model check,
#            tests/t-trainer-impl-gpu.sh; with CHECK_FAMILIES="N ..." the
#            model check again on each flash family N
#   clocks   bench_kernels_model bench (flash, AdamW, default shape, 50
#            steps) with nvidia-smi sampling SM clock, power and the
#            clock-event reasons every 50 ms
#   trace    the same bench under bench/cupti_trace.c (in-situ kernel
#            times and the idle time between them), plain and as a graph
#   ncu      ncu --clock-control none, one step's kernels (docs' command)
#            on NCU_IMPL (default flash,relu2_epilogue,rotary_epilogue: the Hopper default)
#            and the SM clock each ran at, summed by category
#            (bench/ncu_categories.py); ncu_compile the same for one
#            torch.compile step (COMPILE_SHAPE, default "8 512 4")
#   ncu_attn every ncu section of one launch of each attention kernel,
#            ours and cuDNN's (torch.compile's SDPA)
#   ncu_fq   the same for family 13's fused backward kernel, and the
#            durations of its dsum and convert passes
#   table    ROWS="${TABLE_ROWS:-flash relu2 rotary compile}" sh bench/torch/run.sh, nvidia-smi
#            sampling throughout
#   compile_clocks  torch.compile's bench (50 steps) with the same sampling
#   ab       bin/*.before (the committed build) and bin/*.eager (round 7
#            without the lazy rescale) against bin/*, interleaved
#   families two flash kernel families of this build (FAMILIES="13 12"),
#            interleaved, at both shapes, and their harness times
#   sass     instruction counts of the flash kernels, both builds
#   bench    bench_kernels_model bench at both shapes, each IMPL in $IMPLS
#   gemm     bench_kernels gemm time: the own GEMM (gemm_wgmma.cu) checked
#            against the CPU and timed against cuBLASLt (+ relu2.cu)
#   ncu_gemm every ncu section of one launch of each of its epilogues and
#            of cuBLASLt's product at the fc shape (bench_kernels gemm profile)
#   budget   the 5-minute side by side (bench/torch/budget.sh), both sides
#            at once on a two-GPU machine: PyTorch on GPU 1, ours on GPU 0
#   campaign bench/kernels_campaign.sh's runs (issue 10's kernel campaign)
#            on DIR/docs-en.tar.gz, the records in $OUT/runs.jsonl, for
#            `kernels_campaign.sh report` anywhere
set -u
PARTS=${1:?parts}
DIR=${2:-.gpu/r7}
OUT=${OUT:-/tmp/out}
BIN=$(cd "$DIR/bin" && pwd)
# bench.py and model.py: a copy carried in DIR/torch if there is one (the
# tree the call runs in may hold older ones)
TORCH=bench/torch
[ -f "$DIR/torch/bench.py" ] && TORCH=$DIR/torch
NCUCAT=bench/ncu_categories.py
[ -f "$DIR/ncu_categories.py" ] && NCUCAT=$DIR/ncu_categories.py
mkdir -p "$OUT" /tmp/pfx
for f in "$DIR"/*.deb; do dpkg -x "$f" /tmp/pfx; done
export LD_LIBRARY_PATH=/tmp/pfx/usr/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}
SMI_Q=clocks.sm,clocks.mem,power.draw,temperature.gpu,clocks_event_reasons.active

smi_start() { # file
	nvidia-smi --query-gpu=timestamp,$SMI_Q --format=csv,noheader -lms 50 >"$1" 2>&1 &
	SMI_PID=$!
}
smi_stop() { kill "$SMI_PID" 2>/dev/null; wait "$SMI_PID" 2>/dev/null; }
smi_summary() { # file label: SM clock and power over the loaded samples (power > 200 W)
	awk -F', ' '$4 + 0 > 200' "$1" >/tmp/loaded.csv
	n=$(wc -l </tmp/loaded.csv)
	[ "$n" -gt 0 ] || { echo "$2: no loaded samples"; return; }
	clk=$(cut -d, -f2 /tmp/loaded.csv | tr -dc '0-9\n' | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)] " (min " a[1] ", max " a[NR] ")"}')
	pw=$(cut -d, -f4 /tmp/loaded.csv | tr -dc '0-9.\n' | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)] " W (max " a[NR] ")"}')
	why=$(cut -d, -f6 /tmp/loaded.csv | sort | uniq -c | tr -s ' ' | tr '\n' ';')
	echo "$2: $n samples > 200 W: SM MHz median $clk, power median $pw; reasons:$why"
}

rc=0
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit,power.max_limit --format=csv | tee "$OUT/gpu.txt"
command -v nsys >/dev/null && echo "nsys: $(command -v nsys)" || echo "nsys: not on PATH"
for part in $(echo "$PARTS" | tr ',' ' '); do
	echo "=== $part $(date -u +%T)"
	case $part in
	gemm)
		"$BIN/bench_kernels" gemm time >"$OUT/gemm.log" 2>&1 || rc=1
		grep -v '^#' "$OUT/gemm.log" | tail -n 40
		;;
	ncu_gemm)
		# every ncu section of one launch of cuBLASLt's fc product and of
		# each of our GEMM's three epilogues at the depth-8 fc shape
		ncu --clock-control none --set full -k 'regex:gemm_wgmma|nvjet' -o "$OUT/gemm" \
			"$BIN/bench_kernels" gemm profile >"$OUT/ncu_gemm.log" 2>&1 || rc=1
		ncu -i "$OUT/gemm.ncu-rep" --page details --csv >"$OUT/ncu_gemm.csv" 2>&1 || rc=1
		tail -n 3 "$OUT/ncu_gemm.log"
		grep -E '"(Duration|Compute \(SM\) Throughput|Memory Throughput|L2 Cache Throughput|DRAM Throughput|L1/TEX Cache Throughput|Registers Per Thread|Achieved Occupancy|Executed Ipc Active|Issue Slots Busy|No Eligible)"' \
			"$OUT/ncu_gemm.csv" | cut -d, -f5,13- | cut -c1-160
		gzip -f "$OUT/gemm.ncu-rep"
		;;
	checks)
		"$BIN/bench_kernels" flash >"$OUT/flash_checks.log" 2>&1 || rc=1
		tail -n 3 "$OUT/flash_checks.log"
		"$BIN/bench_kernels_model" check >"$OUT/model_check.log" 2>&1 || rc=1
		tail -n 1 "$OUT/model_check.log"
		mkdir -p /tmp/tb && cp "$BIN"/* /tmp/tb/ && BUILD=/tmp/tb sh tests/run.sh t-trainer-impl-gpu >"$OUT/impl_gpu.log" 2>&1 || rc=1
		tail -n 2 "$OUT/impl_gpu.log"
		# kernel families under trial (CHECK_FAMILIES="13"): the model check
		# on each as well (the trainer runs the default family only)
		for f in ${CHECK_FAMILIES:-}; do
			"$BIN/bench_kernels_model" check "family$f" >"$OUT/model_check_f$f.log" 2>&1 || rc=1
			echo "family $f: $(tail -n 1 "$OUT/model_check_f$f.log")"
		done
		;;
	clocks)
		smi_start "$OUT/smi_bench.csv"
		sleep 1
		"$BIN/bench_kernels_model" bench 8 512 4 adamw 50 flash
		sleep 1
		smi_stop
		smi_summary "$OUT/smi_bench.csv" "ours, bench 8 512 4 adamw 50 flash"
		;;
	trace)
		for impl in flash flash,graphs; do
			CUDA_INJECTION64_PATH=$BIN/libcupti_trace.so RL_CUPTI_OUT=$OUT/trace_$impl.txt \
				"$BIN/bench_kernels_model" bench 8 512 4 adamw 20 "$impl"
		done
		python3 bench/cupti_steps.py "$OUT/trace_flash.txt" 3 | tee "$OUT/trace_flash.sum"
		python3 bench/cupti_steps.py "$OUT/trace_flash,graphs.txt" -21 | head -n 8
		gzip -f "$OUT"/trace_*.txt
		;;
	ncu)
		ncu --clock-control none --metrics gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second \
			--csv --page raw "$BIN/bench_kernels_model" bench 8 512 4 adamw 1 "${NCU_IMPL:-flash,relu2_epilogue,rotary_epilogue}" \
			>"$OUT/ncu.csv" 2>"$OUT/ncu.err" || rc=1
		tail -n 2 "$OUT/ncu.err"
		python3 "$NCUCAT" "$OUT/ncu.csv" 4 --kernels 12 | tee "$OUT/ncu.sum"
		gzip -f "$OUT/ncu.csv"
		;;
	ncu_compile)
		# torch.compile's step kernel by kernel: bench.py runs one step between
		# cudaProfilerStart/Stop after its 3 warm-ups (RL_PROFILE_STEP), so the
		# compile, autotuning and warm-ups are not profiled. With
		# --target-processes all and inductor's compile workers, python
		# segfaulted under ncu (round 8, call 1); the main process alone and
		# compiling in it (one thread) ran (call 2) — which of the two fixed
		# it is not established
		RL_PROFILE_STEP=1 TORCHINDUCTOR_COMPILE_THREADS=1 PYTHONUNBUFFERED=1 \
			ncu --clock-control none --target-processes application-only \
			--profile-from-start off \
			--metrics gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second --csv --page raw \
			python3 "$TORCH/bench.py" compile ${COMPILE_SHAPE:-8 512 4} 1 >"$OUT/ncu_compile.csv" 2>"$OUT/ncu_compile.err" || rc=1
		tail -n 2 "$OUT/ncu_compile.err"
		python3 "$NCUCAT" "$OUT/ncu_compile.csv" 1 --kernels 40 | tee "$OUT/ncu_compile.sum"
		[ -n "${COMPILE_SHAPE:-}" ] || [ ! -f "$OUT/ncu.csv.gz" ] || { gunzip -k "$OUT/ncu.csv.gz" &&
			python3 "$NCUCAT" "$OUT/ncu.csv" 4 "$OUT/ncu_compile.csv" 1 && rm -f "$OUT/ncu.csv"; }
		gzip -f "$OUT/ncu_compile.csv"
		;;
	ncu_attn)
		# every section (--set full) of the first launch of each attention
		# kernel, ours (forward, dQ, dK/dV) and cuDNN's under torch.compile
		# (fprop, bprop; one run each: --launch-count counts across names):
		# tensor-pipe use, L2 reduction and atomic traffic, DRAM bytes
		ATTN_METRICS=lts__t_sectors_op_red.sum,lts__t_sectors_op_atom.sum,dram__bytes_read.sum,dram__bytes_write.sum
		: >"$OUT/ncu_attn.err"
		for k in flash_wg_forward flash_wg_dq flash_wg_dkdv; do
			ncu --clock-control none --set full --metrics $ATTN_METRICS --kernel-name regex:$k --launch-count 1 \
				--csv --page details "$BIN/bench_kernels_model" bench 8 512 4 adamw 1 flash \
				>"$OUT/ncu_attn_$k.csv" 2>>"$OUT/ncu_attn.err" || rc=1
		done
		for k in fprop bprop; do
			RL_PROFILE_STEP=1 TORCHINDUCTOR_COMPILE_THREADS=1 PYTHONUNBUFFERED=1 \
				ncu --clock-control none --target-processes application-only \
				--profile-from-start off --set full --metrics $ATTN_METRICS \
				--kernel-name regex:"sdpa.*$k" --launch-count 1 \
				--csv --page details python3 "$TORCH/bench.py" compile 8 512 4 1 \
				>"$OUT/ncu_attn_cudnn_$k.csv" 2>>"$OUT/ncu_attn.err" || rc=1
		done
		tail -n 2 "$OUT/ncu_attn.err"
		python3 "$NCUCAT" --details "$OUT"/ncu_attn_*.csv
		cat "$OUT"/ncu_attn_*.csv | gzip >"$OUT/ncu_attn.csv.gz" && rm -f "$OUT"/ncu_attn_*.csv
		;;
	ncu_fq)
		# family 13's backward under ncu: every section of one launch of the
		# fused kernel (L2 reductions, tensor pipe, warp stalls), the
		# duration of its dsum and convert passes
		ATTN_METRICS=lts__t_sectors_op_red.sum,lts__t_sectors_op_atom.sum,dram__bytes_read.sum,dram__bytes_write.sum
		: >"$OUT/ncu_fq.err"
		for k in flash_wg_bwd_fq flash_wg_dsum flash_wg_dq_convert; do
			set=full
			[ $k = flash_wg_bwd_fq ] || set=basic
			ncu --clock-control none --set $set --metrics $ATTN_METRICS --kernel-name regex:$k --launch-count 1 \
				--csv --page details "$BIN/bench_kernels_model" bench 8 512 4 adamw 1 flash,family13 \
				>"$OUT/ncu_fq_$k.csv" 2>>"$OUT/ncu_fq.err" || rc=1
		done
		tail -n 2 "$OUT/ncu_fq.err"
		python3 "$NCUCAT" --details "$OUT"/ncu_fq_*.csv
		cat "$OUT"/ncu_fq_*.csv | gzip >"$OUT/ncu_fq.csv.gz" && rm -f "$OUT"/ncu_fq_*.csv
		;;
	table)
		smi_start "$OUT/smi_table.csv"
		ROWS="${TABLE_ROWS:-flash relu2 rotary compile}" sh bench/torch/run.sh "$BIN" 20 2>&1 | tee "$OUT/table.log" | grep -v "^ours\|^torch"
		smi_stop
		;;
	compile_clocks)
		smi_start "$OUT/smi_compile.csv"
		sleep 1
		PYTHONUNBUFFERED=1 python3 bench/torch/bench.py compile 8 512 4 50
		sleep 1
		smi_stop
		smi_summary "$OUT/smi_compile.csv" "torch.compile, bench.py compile 8 512 4 50"
		;;
	ab)
		# the committed build (bin/*.before) against this one, interleaved in one call
		for pass in 1 2; do
			for v in .before .eager ""; do
				"$BIN/bench_kernels_model$v" bench 8 512 4 adamw 20 flash | sed "s/^ours/ours$v/"
			done
		done
		for v in .before ""; do
			"$BIN/bench_kernels_model$v" bench 12 768 6 adamw 20 flash | sed "s/^ours/ours$v/"
		done
		for v in .before .eager ""; do
			echo "bench_kernels$v flash time ${FAMILIES:-12}"
			"$BIN/bench_kernels$v" flash time "${FAMILIES:-12}" >"$OUT/flash_time$v.log" 2>&1 || rc=1
			grep -i "fwd\|bwd\|family\|ceiling" "$OUT/flash_time$v.log" | tail -n 8
		done
		;;
	families)
		# two flash kernel families of one build (FAMILIES, default "13 12":
		# the default and the one before it), interleaved, at both shapes;
		# then the harness's forward and fwd+bwd times of each
		fams=${FAMILIES:-13 12}
		for pass in 1 2; do
			for f in $fams; do
				"$BIN/bench_kernels_model" bench 8 512 4 adamw 20 "flash,family$f"
			done
		done
		for f in $fams; do
			"$BIN/bench_kernels_model" bench 12 768 6 adamw 20 "flash,family$f"
		done
		"$BIN/bench_kernels" flash time "$(echo $fams | tr ' ' ',')" >"$OUT/flash_time.log" 2>&1 || rc=1
		grep "^|" "$OUT/flash_time.log" | grep "causal FLOPs\|exact\|FAIL" | cut -c1-160 | tail -n 16
		;;
	sass)
		# instructions, MUFU.EX2 and FSETP a kernel (the warp-specialised flash kernels)
		for v in .before ""; do
			cuobjdump -sass "$BIN/bench_kernels$v" | awk -v v="bench_kernels$v" '
				/Function :/ { f = $3 }
				/\/\*[0-9a-f]+\*\// && f ~ /_pp/ { n[f]++; if (/MUFU.EX2/) x[f]++; if (/FSETP/) p[f]++ }
				END { for (f in n) printf "%s %s: %d instructions, %d MUFU.EX2, %d FSETP\n", v, f, n[f], x[f], p[f] }' | sort
		done
		;;
	bench)
		for shape in "8 512 4" "12 768 6"; do
			for impl in ${IMPLS:-flash}; do
				"$BIN/bench_kernels_model" bench $shape adamw 20 "$impl"
			done
		done
		;;
	budget)
		# issue 10 item 4 in one call on two GPUs (nvidia-h200-x2): PyTorch's
		# side on GPU 1 and ours (BIN/trainer) on GPU 0 at once, BUDGET_S
		# seconds each (default 300), on DIR/docs-en.tar.gz (make corpus's
		# data/docs-en, gzip-compressed); then budget.sh's table
		mkdir -p /tmp/data && tar xzf "$DIR/docs-en.tar.gz" -C /tmp/data || { rc=1; continue; }
		sha256sum /tmp/data/docs-en/manifest.json
		mkdir -p /tmp/tr && cp "$BIN/trainer" /tmp/tr/
		CUDA_VISIBLE_DEVICES=1 sh bench/torch/budget.sh torch build /tmp/data/docs-en "${BUDGET_S:-300}" \
			>"$OUT/torch.log" 2>&1 &
		tp=$!
		CUDA_VISIBLE_DEVICES=0 RECORD=$OUT/ours.rec sh bench/torch/budget.sh ours /tmp/tr /tmp/data/docs-en \
			"${BUDGET_S:-300}" >"$OUT/ours.log" 2>&1 || rc=1
		wait $tp || rc=1
		sh bench/torch/budget.sh table "$OUT/ours.log" "$OUT/torch.log"
		;;
	campaign)
		[ -d /tmp/data/docs-en ] || { mkdir -p /tmp/data && tar xzf "$DIR/docs-en.tar.gz" -C /tmp/data; } ||
			{ rc=1; continue; }
		sha256sum /tmp/data/docs-en/manifest.json
		cp /tmp/data/docs-en/manifest.json "$OUT/data-manifest.json"
		root=$PWD
		(cd /tmp && sh "$root/bench/kernels_campaign.sh" run "$BIN" /tmp/data/docs-en "$OUT/runs.jsonl") || rc=1
		;;
	esac
done
echo "=== done $(date -u +%T) rc=$rc"
exit $rc
