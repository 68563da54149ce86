#!/bin/sh
# budget.sh — issue 10 item 4, "the same 5-minute budget, side by side": our
# trainer and the PyTorch reference (train.py: model.py with torch.compile,
# the same data, batches, optimiser and schedule) each trained for the same
# wall-clock budget at the default shape on the same prepared data, val_bpb
# over the same validation bytes. One side a call (each takes the budget
# plus start-up and evaluation, ~5.5 minutes for 300 s, so both do not fit
# one 10-minute device call); the table is made from the logs.
#   sh bench/torch/budget.sh ours  BUILD DATA [SECONDS [key=value…]] >ours.log
#   sh bench/torch/budget.sh torch BUILD DATA [SECONDS [train.py options…]] >torch.log
#   sh bench/torch/budget.sh table ours.log torch.log
# (MODE=eager for PyTorch eager; RECORD=FILE keeps our run's record; the
# extra arguments are for small checks on a CPU, e.g. a smaller model.)
# Each run prints one `budget side=…` line of key=value (last), after the
# side's own output.
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
usage() { echo "usage: sh bench/torch/budget.sh ours|torch BUILD DATA [SECONDS] | table LOG…" >&2; exit 2; }
[ $# -ge 1 ] || usage
side=$1
shift
case $side in
ours)
	[ $# -ge 2 ] || usage
	build=$1 data=$2 budget=${3:-300}
	shift $(($# < 3 ? $# : 3))
	rec=${RECORD:-}
	if [ -z "$rec" ]; then
		rec=$(mktemp)
		trap 'rm -f "$rec"' EXIT
	fi
	"$build/trainer" data.path="$data" train.time_budget_s="$budget" "$@" --record "$rec" \
		--description "budget.sh: $budget s side by side with PyTorch" || exit $?
	# the summary block (key: value) of the trainer's stdout went above; the
	# one line below repeats its figures from the record for the table
	python3 - "$rec" <<'EOF'
import json, sys
r = json.loads(open(sys.argv[1]).readlines()[-1])  # the final record follows the running one
m, c = r["metrics"], r["config"]
print("budget side=ours impl=trainer opt=%s val_bpb=%.6f tokens_M=%.1f tokens_per_s=%.0f "
      "peak_mb=%.0f num_steps=%d training_seconds=%.1f" % (
          c["optim.matrix_optimizer"], m["val_bpb"], m["total_tokens_M"], m["tokens_per_second"],
          m["peak_vram_mb"], m["num_steps"], m["training_seconds"]))
EOF
	;;
torch)
	[ $# -ge 2 ] || usage
	data=$2 budget=${3:-300}
	shift $(($# < 3 ? $# : 3))
	out=$(mktemp)
	trap 'rm -f "$out"' EXIT
	PYTHONUNBUFFERED=1 python3 "$ROOT/bench/torch/train.py" "$data" --budget "$budget" \
		--mode "${MODE:-compile}" "$@" | tee "$out"
	grep -q '^torch-train ' "$out" || exit 1
	awk '/^torch-train / {
		for (i = 2; i <= NF; i++) { split($i, a, "="); v[a[1]] = a[2] }
		printf "budget side=torch impl=torch-%s opt=%s val_bpb=%s tokens_M=%s tokens_per_s=%s peak_mb=%s num_steps=%s training_seconds=%s\n",
			v["mode"], v["opt"], v["val_bpb"], v["total_tokens_M"], v["tokens_per_s"], v["peak_mb"],
			v["num_steps"], v["training_seconds"]
	}' "$out"
	;;
table)
	[ $# -ge 1 ] || usage
	awk 'function kv(k,   i, a) { for (i = 2; i <= NF; i++) { split($i, a, "="); if (a[1] == k) return a[2] } return "" }
	BEGIN {
		print "| implementation | optimiser | val_bpb | tokens | tokens/s | steps | training s | peak MB |"
		print "|---|---|---:|---:|---:|---:|---:|---:|"
	}
	/^budget side=/ {
		printf "| %s | %s | %s | %s M | %.3f M | %s | %s | %s |\n", kv("impl"), kv("opt"), kv("val_bpb"),
			kv("tokens_M"), kv("tokens_per_s") / 1e6, kv("num_steps"), kv("training_seconds"), kv("peak_mb")
	}' "$@"
	;;
*) usage ;;
esac
