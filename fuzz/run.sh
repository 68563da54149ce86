#!/bin/sh
# run.sh — run each libFuzzer harness built by `make fuzz` for FUZZ_SECONDS,
# one at a time and niced (the machine is shared), and say per harness how
# many inputs it ran and whether it found a crash. Exits 1 when any did,
# printing where the crashing input was saved.
#   FUZZ_BUILD=build-fuzz FUZZ_SECONDS=60 FUZZ_SEED=1 sh fuzz/run.sh [NAME...]
# FUZZ_SEED fixes libFuzzer's random seed (default 1), so a CI run explores
# what the same run explored here and a pass or a crash can be reproduced;
# FUZZ_SEED=0 takes a new random seed each run, for fuzzing to find more.
# Seeds come from fuzz/corpus/NAME/ (read only); what the fuzzer finds new
# goes to $FUZZ_BUILD/corpus/NAME/, crashes to $FUZZ_BUILD/crashes/NAME/.
set -u
cd "$(dirname "$0")/.."
B=${FUZZ_BUILD:-build-fuzz}
SECS=${FUZZ_SECONDS:-60}
SEED=${FUZZ_SEED:-1}
names=${*:-runrec paths cfgdiff tsv runlog arh template infer}

# Longest input per harness: a few times the largest real input of the
# kind (a run record ~1 KB, a results.tsv of a campaign, a run.log tail).
max_len() {
	case $1 in
	infer) echo 512 ;;
	cfgdiff) echo 2048 ;;
	arh) echo 4096 ;;
	runrec|paths|tsv|template) echo 8192 ;;
	runlog) echo 16384 ;;
	*) echo 4096 ;;
	esac
}

failed=0
for n in $names; do
	bin=$B/fuzz/fuzz_$n
	if [ ! -x "$bin" ]; then
		echo "fuzz: $n: $bin is missing; build it with make fuzz" >&2
		failed=1
		continue
	fi
	mkdir -p "$B/corpus/$n" "$B/crashes/$n"
	log=$B/fuzz-$n.log
	# -close_fd_mask=3: the readers' warnings go nowhere; libFuzzer and the
	# sanitizers keep their own copy of stderr for reports
	nice -n 10 "$bin" -max_total_time="$SECS" -seed="$SEED" -max_len="$(max_len "$n")" -timeout=10 \
		-rss_limit_mb=2048 -close_fd_mask=3 -print_final_stats=1 \
		-artifact_prefix="$B/crashes/$n/" "$B/corpus/$n" "fuzz/corpus/$n" >"$log" 2>&1
	rc=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
	rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n 1)
	seeds=$(sed -n 's/.*INITED.*corp: \([0-9]*\).*/\1/p' "$log" | tail -n 1)
	units=$(sed -n 's/^#[0-9].*corp: \([0-9]*\).*/\1/p' "$log" | tail -n 1)
	saved=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log")
	if [ "$rc" -eq 0 ] && [ -z "$saved" ]; then
		echo "fuzz: $n: ok, ${execs:-?} runs in ${SECS} s (${rate:-?}/s), corpus ${seeds:-?} -> ${units:-?} inputs ($log)"
	else
		failed=1
		echo "fuzz: $n: FAILED (exit $rc) after ${execs:-?} runs; log $log"
		grep -E '^(==[0-9]+==ERROR|SUMMARY|fuzz: )|runtime error' "$log" | head -n 5 | sed 's/^/    /'
		for s in $saved; do
			echo "    crashing input saved to $s; reproduce: $bin $s"
		done
	fi
done
exit $failed
