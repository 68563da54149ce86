# t-trainer-impl-gpu.sh — every impl.* value of the CUDA path does what it
# says: on the same batches (train.steps, same seed) each variant runs
# other kernels than the default — read from the kernel trace the trainer
# prints with RL_TRAINER_TRACE_KERNELS=1 — and its per-step losses and
# val_bpb stay within LOSS_TOL of the default's. Skipped without a GPU.
# Test plan (depth 2, dim 128, 2 heads of 64, seq 128, 2 micro-batches a
# step, 20 steps):
#   gpu-1.x  the default run: naive attention, fused kernels, heuristic
#            GEMMs, no graph; auto recorded as what ran
#   gpu-2.x  impl.attention=flash: flash kernels instead of the softmax and
#            batched GEMMs, less memory (no T x T buffers), same losses;
#            q, k, v read where the QKV projection wrote them (packed rotary);
#            the fused backward on compute capability 9.0, the dQ and dK/dV
#            pair at seq 64 (its fallback) and on other GPUs
#   gpu-3.x  impl.fused_adamw=false: moments/apply kernels, same losses
#   gpu-4.x  impl.fused_xent=false: softcap/softmax/loss/grad kernels
#   gpu-5.x  impl.cuda_graphs=true: step 2 captured, 19 graph launches,
#            host launches no longer grow with the step count
#   gpu-6.x  impl.compile_mode=autotune: candidates timed per GEMM shape
#   gpu-7.x  impl.recompute=true: extra block forwards in backward, less
#            memory (the saving printed), same losses
#   gpu-8.x  refusals on cuda: compile_mode=none, impl.threads=2, flash at
#            head size 32: exit 2, no record; auto at head size 32 -> naive
#   gpu-9.x  impl.relu2=epilogue (compute capability 9.0): the fc forward
#            and the projection's input gradient in our own GEMM with relu^2
#            in its epilogues, no relu2 kernels, same losses; refused at
#            seq 64 and on other GPUs; impl.relu2=kernel: relu2 kernels
#   gpu-10.x impl.rotary=epilogue (compute capability 9.0, flash, head size
#            128: dim 256 here): QK-norm + rotary in our QKV GEMM's
#            epilogue, one launch a layer in place of cuBLASLt's QKV
#            product + rotary_forward_packed, and the rotary backward in
#            dQ's conversion and the fused attention backward's dK store
#            in place of rotary_backward_packed, same losses; auto resolves to
#            it; refused at head size 64, with naive attention and on
#            other GPUs, with no record
#   gpu-11.x impl.gemm=wgmma (compute capability 9.0, dim 256 here): the
#            blocks' products with no epilogue of ours on our own GEMM, one
#            launch of it for each cuBLASLt launch it replaces, same losses;
#            auto resolves to it at dim 256 and to cublaslt at dim 128;
#            refused at dim 128 and on other GPUs, with no record
. "$ROOT/tests/lib.sh"
LOSS_TOL=0.02

if ! nvidia-smi -L >/dev/null 2>&1; then
	ok gpu-0 "# SKIP no GPU on this machine"
	exit 0
fi
awk 'BEGIN { srand(3); for (i = 0; i < 20000; i++) { n = int(rand() * 9); printf "line %d: the %s fox jumps over %d lazy dogs; ", i, (n % 2 ? "quick" : "slow"), n; if (i % 7 == 0) print "" } }' >corpus.txt
mkdir -p text && mv corpus.txt text/
"$TRAINER" prepare-data --out data --val-fraction 0.1 text >/dev/null 2>&1
G="data.path=data train.device=cuda model.depth=2 model.dim=128 model.heads=2 model.seq_len=128
train.device_batch_size=8 train.total_batch_size=2048 train.eval_tokens=65536 train.steps=20 train.seed=5"

# run NAME [key=value...]: trace in NAME.err, summary NAME.out, record NAME.jsonl
run() {
	name=$1; shift
	# shellcheck disable=SC2086
	RL_TRAINER_TRACE_KERNELS=1 "$TRAINER" $G "$@" --record "$name.jsonl" >"$name.out" 2>"$name.err"
}
count() { # NAME KERNEL: host launches of KERNEL in NAME's trace (0 if none)
	awk -v k="$2" '$1 == "trace:" && $2 == "kernel" && $3 == k { n = $4 } END { print n + 0 }' "$1.err"
}
losses() { grep -o 'loss [0-9.]*' "$1.err" | awk '{ print $2 }'; }
# worst |a-b|/b over the per-step losses of two runs, and of val_bpb
loss_diff() {
	losses "$1" >a.l; losses "$2" >b.l
	paste a.l b.l | awk 'NF == 2 { d = ($1 - $2) / $2; d = d < 0 ? -d : d; if (d > m) m = d; n++ }
		END { if (n != 20) print "steps:" n; else printf "%.2e\n", m }'
}
bpb_diff() {
	a=$(sed -n 's/^val_bpb: *//p' "$1.out"); b=$(sed -n 's/^val_bpb: *//p' "$2.out")
	awk -v a="$a" -v b="$b" 'BEGIN { if (a == "" || b == "") print "missing"; else { d = (a - b) / b; printf "%.2e\n", d < 0 ? -d : d } }'
}
within() { awk -v d="$1" -v t="$LOSS_TOL" 'BEGIN { print (d ~ /^[0-9.e+-]+$/ && d + 0 <= t + 0) }'; }
mem() { sed -n 's/^peak_vram_mb: *//p' "$1.out"; }
same_losses() { # ID NAME: losses and val_bpb of NAME within LOSS_TOL of base
	d=$(loss_diff "$2" base) b=$(bpb_diff "$2" base)
	echo "# $2 vs default: worst per-step loss difference $d, val_bpb $b (tolerance $LOSS_TOL)"
	expect_eq "$1" "$2: per-step losses and val_bpb within $LOSS_TOL of the default" "1 1" \
		"$(within "$d") $(within "$b")"
}

run base impl.attention=naive
expect_eq gpu-1.1 "the default run exits 0" 0 $?
rec=$(cat base.jsonl)
expect_match gpu-1.2 "recorded as run: heuristic GEMMs, naive attention, fused, no graph" "$rec" \
	'"impl.recompute":false,"impl.compile_mode":"heuristic","impl.attention":"naive","impl.fused_adamw":true,"impl.fused_xent":true,"impl.relu2":"(kernel|epilogue)","impl.rotary":"kernel","impl.cuda_graphs":false'
expect_eq gpu-1.3 "default kernels: softmax, fused xent and AdamW, no flash, no graph" "1 1 1 0 0" \
	"$(count base causal_softmax_forward | awk '{print ($1 > 0)}') $(count base crossentropy | awk '{print ($1 > 0)}') $(count base adamw_fused | awk '{print ($1 > 0)}') $(count base flash_forward) $(count base graph_launch)"
echo "# default: peak_vram_mb $(mem base), $(grep -c 'trace: kernel' base.err) kernel names"

run flash impl.attention=flash
expect_eq gpu-2.1 "flash exits 0" 0 $?
# on an H100/H200 (compute capability 9.0) the default flash family's
# backward is one fused kernel where T is a multiple of 128 (seq 128 here)
# and the dQ and dK/dV pair elsewhere (seq 64, gpu-2.6); other GPUs run
# the mma.sync pair at any T
hopper=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -n 1 | tr -d ' ')
pair="$(count flash flash_backward_dkdv | awk '{print ($1 > 0)}') $(count flash flash_backward_dq | awk '{print ($1 > 0)}')"
fused="$(count flash flash_dsum | awk '{print ($1 > 0)}') $(count flash flash_backward_fused | awk '{print ($1 > 0)}') $(count flash flash_dq_convert | awk '{print ($1 > 0)}')"
if [ "$hopper" = "9.0" ]; then
	expect_eq gpu-2.2 "flash kernels ran (the fused backward on compute capability 9.0), the naive softmax did not" \
		"1 1 1 1 0 0 0" "$(count flash flash_forward | awk '{print ($1 > 0)}') $fused $pair $(count flash causal_softmax_forward)"
else
	expect_eq gpu-2.2 "flash kernels ran (the dQ and dK/dV pair), the naive softmax did not" "1 1 1 0" \
		"$(count flash flash_forward | awk '{print ($1 > 0)}') $pair $(count flash causal_softmax_forward)"
fi
same_losses gpu-2.3 flash
echo "# flash: peak_vram_mb $(mem flash) vs naive $(mem base)"
expect_eq gpu-2.4 "flash needs less memory (no T x T buffers)" 1 \
	"$(awk -v a="$(mem flash)" -v b="$(mem base)" 'BEGIN { print (a + 0 < b + 0) }')"
# flash reads q, k, v from the QKV output: rotary works in place there and
# copies no v (the packed kernels), the naive path splits heads as before
expect_eq gpu-2.5 "flash: packed rotary fwd/bwd and no head-split copy; naive: the head split" "1 1 0 0 1 1" \
	"$(for k in rotary_forward_packed_vec rotary_backward_packed_vec rotary_forward_vec rotary_backward_vec; do count flash $k | awk '{printf "%d ", ($1 > 0)}'; done)$(count base rotary_forward_vec | awk '{printf "%d ", ($1 > 0)}')$(count base rotary_backward_vec | awk '{print ($1 > 0)}')"
# the auto default on this shape is flash, and recorded so
# shellcheck disable=SC2086
"$TRAINER" $G train.steps=1 --record auto.jsonl >/dev/null 2>&1
expect_match gpu-2.5 "auto resolves to flash at head size 64, recorded so" "$(cat auto.jsonl)" '"impl.attention":"flash"'
# T = 64, not a multiple of 128: the fused backward's fallback, the pair
run flash64 impl.attention=flash model.seq_len=64
rc=$?
expect_eq gpu-2.6 "flash at seq 64: the dQ and dK/dV pair, no fused backward" "0 1 1 0" \
	"$rc $(count flash64 flash_backward_dkdv | awk '{print ($1 > 0)}') $(count flash64 flash_backward_dq | awk '{print ($1 > 0)}') $(count flash64 flash_backward_fused)"

run unfused_adamw impl.attention=naive impl.fused_adamw=false
expect_eq gpu-3.1 "unfused AdamW: moments and apply kernels, no fused one" "1 1 0" \
	"$(count unfused_adamw adamw_moments | awk '{print ($1 > 0)}') $(count unfused_adamw adamw_apply | awk '{print ($1 > 0)}') $(count unfused_adamw adamw_fused)"
same_losses gpu-3.2 unfused_adamw

run unfused_xent impl.attention=naive impl.fused_xent=false
expect_eq gpu-4.1 "unfused xent: four kernels, not the fused one" "1 1 1 1 0" \
	"$(for k in xent_softcap xent_softmax xent_loss xent_grad; do count unfused_xent $k | awk '{printf "%d ", ($1 > 0)}'; done)$(count unfused_xent crossentropy)"
same_losses gpu-4.2 unfused_xent

run graphs impl.attention=naive impl.cuda_graphs=true
expect_eq gpu-5.1 "graphs: 19 graph launches for 20 steps" 19 "$(count graphs graph_launch)"
expect_match gpu-5.2 "graphs: the trace notes the capture at step 2" "$(cat graphs.err)" \
	'^trace: note cuda graph: step 2 captured, [0-9]+ nodes'
# host launches of a training kernel: eager grows with the steps, graph does not
run graphs10 impl.attention=naive impl.cuda_graphs=true train.steps=10
run base10 impl.attention=naive train.steps=10
expect_eq gpu-5.3 "graphs: adamw launches from the host the same for 10 and 20 steps" \
	"$(count graphs10 adamw_fused)" "$(count graphs adamw_fused)"
expect_eq gpu-5.4 "eager: adamw launches double from 10 to 20 steps" \
	"$(($(count base10 adamw_fused) * 2))" "$(count base adamw_fused)"
same_losses gpu-5.5 graphs

run autotune impl.attention=naive impl.compile_mode=autotune
expect_match gpu-6.1 "autotune: candidates timed per GEMM shape" "$(cat autotune.err)" \
	'^trace: note gemm [0-9x]+ .*autotune timed [0-9]+ candidates'
expect_eq gpu-6.2 "heuristic run timed none" 0 "$(grep -c 'autotune timed' base.err)"
grep 'autotune timed' autotune.err | sed 's/^/# /' | head -n 12
same_losses gpu-6.3 autotune

run recompute impl.attention=naive impl.recompute=true
expect_eq gpu-7.1 "recompute: more block forwards (rmsnorm) than the default" 1 \
	"$(awk -v a="$(count recompute rmsnorm_forward)" -v b="$(count base rmsnorm_forward)" 'BEGIN { print (a > b) }')"
echo "# recompute: peak_vram_mb $(mem recompute) vs $(mem base) without"
expect_eq gpu-7.2 "recompute needs less memory" 1 \
	"$(awk -v a="$(mem recompute)" -v b="$(mem base)" 'BEGIN { print (a + 0 < b + 0) }')"
same_losses gpu-7.3 recompute
run recompute_flash impl.attention=flash impl.recompute=true
same_losses gpu-7.4 recompute_flash
echo "# recompute + flash: peak_vram_mb $(mem recompute_flash) vs flash $(mem flash)"

i=0
for kv in impl.compile_mode=none impl.threads=2 "impl.attention=flash model.heads=4"; do
	i=$((i + 1))
	# shellcheck disable=SC2086
	expect_code "gpu-8.$i" "refused on cuda: $kv" 2 "$TRAINER" $G $kv --record refused.jsonl
	expect_match "gpu-8.$i.msg" "the message names key, value and cuda" "$err" \
		'^trainer: impl\.[a-z_]+=[a-z0-9]+ is not implemented on cuda'
done
[ ! -e refused.jsonl ] && ok gpu-8.4 "no record for any refusal" || not_ok gpu-8.4 "no record" "$(cat refused.jsonl)"
# shellcheck disable=SC2086
"$TRAINER" $G model.heads=4 train.steps=1 --record auto32.jsonl >/dev/null 2>&1
expect_match gpu-8.5 "auto at head size 32 falls back to naive, recorded so" "$(cat auto32.jsonl)" \
	'"impl.attention":"naive"'

# impl.relu2: relu^2 in the epilogues of kernels/gemm_wgmma.cu (sm_90a) or
# relu2.cu's passes between cuBLASLt GEMMs
run relu2_kernel impl.attention=flash impl.relu2=kernel
expect_eq gpu-9.1 "relu2=kernel: relu2 kernels, none of our GEMMs" "1 1 0 0" \
	"$(count relu2_kernel relu2_forward | awk '{print ($1 > 0)}') $(count relu2_kernel relu2_backward | awk '{print ($1 > 0)}') $(count relu2_kernel gemm_wgmma_relu2) $(count relu2_kernel gemm_wgmma_drelu2)"
if [ "$hopper" = "9.0" ]; then
	run relu2_epilogue impl.attention=flash impl.relu2=epilogue
	rc=$?
	expect_eq gpu-9.2 "relu2=epilogue: our GEMM's two epilogues, one launch a layer each, no relu2 kernels" \
		"0 $(count relu2_kernel relu2_forward) $(count relu2_kernel relu2_backward) 0 0" \
		"$rc $(count relu2_epilogue gemm_wgmma_relu2) $(count relu2_epilogue gemm_wgmma_drelu2) $(count relu2_epilogue relu2_forward) $(count relu2_epilogue relu2_backward)"
	expect_match gpu-9.3 "recorded as run; auto (gpu-2.5's run) resolves to epilogue here" \
		"$(cat relu2_epilogue.jsonl) $(cat auto.jsonl)" '"impl.relu2":"epilogue".*"impl.relu2":"epilogue"'
	d=$(loss_diff relu2_epilogue relu2_kernel) b=$(bpb_diff relu2_epilogue relu2_kernel)
	echo "# relu2 epilogue vs kernel: worst per-step loss difference $d, val_bpb $b (tolerance $LOSS_TOL)"
	expect_eq gpu-9.4 "relu2=epilogue: per-step losses and val_bpb within $LOSS_TOL of relu2=kernel" "1 1" \
		"$(within "$d") $(within "$b")"
	# shellcheck disable=SC2086
	expect_code gpu-9.5 "relu2=epilogue at seq 64 (not a multiple of 128): exit 2" 2 "$TRAINER" $G \
		impl.relu2=epilogue model.seq_len=64 --record refused9.jsonl
	expect_match gpu-9.6 "the message names the shape" "$err" \
		'^trainer: impl.relu2=epilogue is not implemented on cuda for this shape: .*seq_len 64'
else
	# shellcheck disable=SC2086
	expect_code gpu-9.2 "relu2=epilogue off Hopper: exit 2" 2 "$TRAINER" $G impl.relu2=epilogue \
		--record refused9.jsonl
	expect_match gpu-9.3 "the message names the compute capability" "$err" \
		'^trainer: impl.relu2=epilogue is not implemented on cuda for this shape: .*compute capability 9.0'
	expect_match gpu-9.3b "auto (gpu-2.5's run) resolves to kernel here" "$(cat auto.jsonl)" '"impl.relu2":"kernel"'
fi
[ ! -e refused9.jsonl ] && ok gpu-9.7 "no record for the refusal" || not_ok gpu-9.7 "no record" "$(cat refused9.jsonl)"

# refused_off_hopper ID KEY=VALUE RECORD: on a GPU other than compute
# capability 9.0, KEY=VALUE (at dim 256, flash) exits 2, names the
# compute capability and leaves RECORD unwritten (checked by the caller)
refused_off_hopper() {
	# shellcheck disable=SC2086
	expect_code "$1" "$2 off Hopper: exit 2" 2 "$TRAINER" $G $H128 "$2" --record "$3"
	expect_match "$1.msg" "the message names the compute capability" "$err" \
		"^trainer: $2 is not implemented on cuda for this shape: .*compute capability 9.0"
}

# impl.rotary: QK-norm + rotary in the epilogue of our QKV GEMM (sm_90a) or
# rotary.cu's pass after cuBLASLt's; head size 128 (dim 256, 2 heads)
H128="model.dim=256 impl.attention=flash"
# shellcheck disable=SC2086
run rot_kernel $H128 impl.rotary=kernel
rc=$?
expect_eq gpu-10.1 "rotary=kernel: rotary_forward_packed, no QKV GEMM of ours" "0 1 0" \
	"$rc $(count rot_kernel rotary_forward_packed_vec | awk '{print ($1 > 0)}') $(count rot_kernel gemm_wgmma_rotary)"
if [ "$hopper" = "9.0" ]; then
	# shellcheck disable=SC2086
	run rot_epilogue $H128 impl.rotary=epilogue
	rc=$?
	# forward: our QKV GEMM in place of cuBLASLt's + the rotary pass;
	# backward: dQ's conversion with the rotary backward in place of the
	# plain conversion + the rotary backward pass
	expect_eq gpu-10.2 "rotary=epilogue: one QKV GEMM of ours where the rotary pass was, dQ's rotary conversion where the plain one and the rotary backward were, no rotary pass" \
		"0 $(count rot_kernel rotary_forward_packed_vec) 0 $(count rot_kernel rotary_backward_packed_vec) 0 0" \
		"$rc $(count rot_epilogue gemm_wgmma_rotary) $(count rot_epilogue rotary_forward_packed_vec) $(count rot_epilogue flash_dq_rotary) $(count rot_epilogue rotary_backward_packed_vec) $(count rot_epilogue flash_dq_convert)"
	d=$(loss_diff rot_epilogue rot_kernel) b=$(bpb_diff rot_epilogue rot_kernel)
	echo "# rotary epilogue vs kernel: worst per-step loss difference $d, val_bpb $b (tolerance $LOSS_TOL)"
	expect_eq gpu-10.3 "rotary=epilogue: per-step losses and val_bpb within $LOSS_TOL of rotary=kernel" "1 1" \
		"$(within "$d") $(within "$b")"
	# shellcheck disable=SC2086
	"$TRAINER" $G model.dim=256 train.steps=1 --record rot_auto.jsonl >/dev/null 2>&1
	expect_match gpu-10.4 "recorded as run; auto at head size 128 resolves to epilogue here" \
		"$(cat rot_epilogue.jsonl) $(cat rot_auto.jsonl)" '"impl.rotary":"epilogue".*"impl.rotary":"epilogue"'
	# shellcheck disable=SC2086
	expect_code gpu-10.5 "rotary=epilogue at head size 64: exit 2" 2 "$TRAINER" $G impl.attention=flash \
		impl.rotary=epilogue --record refused10.jsonl
	expect_match gpu-10.6 "the message names the head size" "$err" \
		'^trainer: impl.rotary=epilogue is not implemented on cuda for this shape: .*head size 64'
	# shellcheck disable=SC2086
	expect_code gpu-10.7 "rotary=epilogue with naive attention: exit 2" 2 "$TRAINER" $G model.dim=256 \
		impl.attention=naive impl.rotary=epilogue --record refused10.jsonl
	expect_match gpu-10.8 "the message names impl.attention" "$err" \
		'^trainer: impl.rotary=epilogue is not implemented on cuda for this shape: .*impl.attention=flash'
else
	refused_off_hopper gpu-10.2 impl.rotary=epilogue refused10.jsonl
fi
[ ! -e refused10.jsonl ] && ok gpu-10.9 "no record for the refusals" || not_ok gpu-10.9 "no record" "$(cat refused10.jsonl)"

# impl.gemm: the blocks' products with no epilogue of ours (attention's
# output projection, the MLP's projection, the input gradients of QKV, the
# output projection and fc) on cuBLASLt or on our own GEMM; dim 256 (every
# width a multiple of the 256-column tile)
# shellcheck disable=SC2086
run gemm_lt $H128 impl.gemm=cublaslt
rc=$?
expect_eq gpu-11.1 "gemm=cublaslt: none of our plain GEMMs" "0 0" "$rc $(count gemm_lt gemm_wgmma)"
if [ "$hopper" = "9.0" ]; then
	# shellcheck disable=SC2086
	run gemm_own $H128 impl.gemm=wgmma
	rc=$?
	own=$(count gemm_own gemm_wgmma) lt_left=$(count gemm_own gemm_lt) lt_all=$(count gemm_lt gemm_lt)
	echo "# gemm=wgmma: $own launches of our GEMM, $lt_left of cuBLASLt's; gemm=cublaslt: $lt_all of cuBLASLt's"
	# each moved product is one launch either way; the weight gradients
	# and the classifier stay on cuBLASLt
	expect_eq gpu-11.2 "gemm=wgmma: each moved product one launch of ours instead of one of cuBLASLt's, some left there" \
		"0 1 1 $lt_all" "$rc $(awk -v n="$own" 'BEGIN { print (n > 0) }') $(awk -v n="$lt_left" 'BEGIN { print (n > 0) }') $((own + lt_left))"
	d=$(loss_diff gemm_own gemm_lt) b=$(bpb_diff gemm_own gemm_lt)
	echo "# gemm wgmma vs cublaslt: worst per-step loss difference $d, val_bpb $b (tolerance $LOSS_TOL)"
	expect_eq gpu-11.3 "gemm=wgmma: per-step losses and val_bpb within $LOSS_TOL of gemm=cublaslt" "1 1" \
		"$(within "$d") $(within "$b")"
	expect_match gpu-11.4 "recorded as run; auto resolves to wgmma at dim 256 (gpu-10.4's run), cublaslt at dim 128" \
		"$(tail -n 1 gemm_own.jsonl) $(tail -n 1 rot_auto.jsonl) $(tail -n 1 base.jsonl)" \
		'"impl.gemm":"wgmma".*"impl.gemm":"wgmma".*"impl.gemm":"cublaslt"'
	# shellcheck disable=SC2086
	expect_code gpu-11.5 "gemm=wgmma at dim 128: exit 2" 2 "$TRAINER" $G impl.gemm=wgmma --record refused11.jsonl
	expect_match gpu-11.6 "the message names the shape" "$err" \
		'^trainer: impl.gemm=wgmma is not implemented on cuda for this shape: .*dim 128'
else
	refused_off_hopper gpu-11.2 impl.gemm=wgmma refused11.jsonl
fi
[ ! -e refused11.jsonl ] && ok gpu-11.7 "no record for the refusals" || not_ok gpu-11.7 "no record" "$(cat refused11.jsonl)"
