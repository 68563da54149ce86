# t-trainer-impl.sh — no impl.* value is accepted without effect, and no
# usage mistake leaves a record. Runs anywhere (train.device=cpu); the GPU
# paths of each value are tests/t-trainer-impl-gpu.sh.
# Test plan:
#   impl-1.x  each impl.* value the CPU does not implement (trainer/impl.c):
#             exit 2, the message names key, value and device, a hint lists
#             what the CPU accepts, no record
#   impl-2.x  the values the CPU does implement are accepted; `auto` is
#             recorded as the value that ran (naive, none); writing the
#             CPU's values out gives the same losses as the defaults
#   impl-3.x  other usage mistakes write no record either: a value outside
#             the key's choices, an unknown key, a bad number
#   impl-4.x  `trainer` with no arguments on a machine without a GPU says
#             what to run instead, exits 2 and writes nothing
. "$ROOT/tests/lib.sh"

"$TRAINER" prepare-data --out sample /usr/share/common-licenses 2>/dev/null
TINY="data.path=sample model.depth=1 model.dim=32 model.heads=2 model.seq_len=32
train.device_batch_size=4 train.total_batch_size=128 train.eval_tokens=4096 train.device=cpu"

i=0
for kv in impl.attention=flash impl.cuda_graphs=true impl.recompute=true impl.compile_mode=heuristic \
	impl.compile_mode=autotune impl.fused_adamw=false impl.fused_xent=false impl.relu2=epilogue \
	impl.rotary=epilogue impl.gemm=cublaslt impl.gemm=wgmma; do
	i=$((i + 1))
	key=${kv%%=*} value=${kv#*=}
	# shellcheck disable=SC2086
	expect_code "impl-1.$i" "$kv refused on the CPU: exit 2" 2 "$TRAINER" $TINY train.steps=2 "$kv" \
		--record rec.jsonl
	expect_eq "impl-1.$i.msg" "$kv: the message names key, value and device" \
		"trainer: $key=$value is not implemented on cpu" "$(head -n 1 stderr.txt | sed 's/: [^:]*$//')"
	expect_match "impl-1.$i.hint" "$kv: the hint lists the CPU's values" "$err" \
		"^trainer: hint: on cpu, $key accepts: [a-z]+"
	[ ! -e rec.jsonl ] && ok "impl-1.$i.rec" "$kv: no record" ||
		not_ok "impl-1.$i.rec" "$kv: no record" "$(cat rec.jsonl)"
done

# shellcheck disable=SC2086
expect_code impl-2.1 "the defaults train on the CPU" 0 "$TRAINER" $TINY train.steps=3 --record rec.jsonl
grep -o 'loss [0-9.]*' stderr.txt >default.loss
rec=$(cat rec.jsonl)
expect_match impl-2.2 "auto recorded as what ran: attention naive, compile_mode none" "$rec" \
	'"impl.compile_mode":"none","impl.attention":"naive"'
expect_match impl-2.2b "auto recorded as what ran: relu2 kernel" "$rec" '"impl.relu2":"kernel"'
expect_match impl-2.2c "auto recorded as what ran: rotary kernel" "$rec" '"impl.rotary":"kernel"'
expect_match impl-2.2d "auto recorded as what ran: gemm loops" "$rec" '"impl.gemm":"loops"'

expect_match impl-2.3 "the CPU's booleans recorded" "$rec" \
	'"impl.recompute":false,.*"impl.fused_adamw":true,"impl.fused_xent":true,"impl.relu2":"kernel","impl.rotary":"kernel","impl.cuda_graphs":false'
# shellcheck disable=SC2086
expect_code impl-2.4 "the CPU's values written out are accepted" 0 "$TRAINER" $TINY train.steps=3 \
	impl.attention=naive impl.compile_mode=none impl.recompute=false impl.fused_adamw=true \
	impl.fused_xent=true impl.relu2=kernel impl.rotary=kernel impl.cuda_graphs=false impl.threads=1 impl.gemm=loops --no-record
expect_eq impl-2.5 "and give the default's losses" "$(cat default.loss)" "$(grep -o 'loss [0-9.]*' stderr.txt)"

# shellcheck disable=SC2086
expect_code impl-3.1 "a value outside the choices: exit 2" 2 "$TRAINER" $TINY impl.attention=sdpa --record r3.jsonl
expect_eq impl-3.2 "and the message lists the choices" \
	"trainer: command line: impl.attention 'sdpa' is not one of auto|naive|flash" "$(head -n 1 stderr.txt)"
# shellcheck disable=SC2086
expect_code impl-3.3 "an unknown key: exit 2" 2 "$TRAINER" $TINY impl.flash=true --record r3.jsonl
# shellcheck disable=SC2086
expect_code impl-3.4 "a bad number: exit 2" 2 "$TRAINER" $TINY train.steps=many --record r3.jsonl
[ ! -e r3.jsonl ] && ok impl-3.5 "no record for any of them" || not_ok impl-3.5 "no record" "$(cat r3.jsonl)"

if nvidia-smi -L >/dev/null 2>&1; then
	ok impl-4.1 "# SKIP a GPU is present: bare trainer would train"
else
	mkdir bare && cd bare || exit 1
	expect_code impl-4.1 "bare trainer without a GPU: exit 2" 2 "$TRAINER"
	expect_match impl-4.2 "it says there is no GPU and the defaults are the GPU shape" "$err" \
		'^trainer: no CUDA GPU here, and the defaults are the GPU shape'
	expect_match impl-4.3 "it says what to run instead" "$err" \
		'^trainer: hint: on a CPU run the demo model: trainer --config trainer/configs/demo-cpu.conf'
	expect_eq impl-4.4 "and writes nothing" "" "$(ls -A | grep -v -e '^stdout.txt$' -e '^stderr.txt$')"
	cd ..
fi
