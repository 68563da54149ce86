"""bench.py - training throughput of the PyTorch reference model (model.py):
bf16 autocast, fused AdamW, SDPA; eager or torch.compile. One optimiser step
per micro-batch of 64 x 2048 random byte tokens, like
`kernels_model bench` does for ours. Prints one line of key=value
(run.sh adds MFU from our row of the same shape).

python3 bench/torch/bench.py MODE DEPTH DIM HEADS [STEPS]   (MODE eager|compile)

RL_PROFILE_STEP=1 adds one step between cudaProfilerStart/Stop after the
warm-ups, for `ncu --profile-from-start off` (bench/gpu_round.sh ncu_compile).
"""
import os
import sys
import time

import torch

from model import GPT



def main():
    mode, depth, dim, heads = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    steps = int(sys.argv[5]) if len(sys.argv) > 5 else 20
    B, T = 64, 2048
    torch.manual_seed(0)
    dev = "cuda"
    model = GPT(depth=depth, dim=dim, heads=heads, seq_len=T).to(dev)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4, betas=(0.8, 0.95), eps=1e-8,
                            weight_decay=0.0, fused=True)
    fwd = torch.compile(model) if mode == "compile" else model
    idx = torch.randint(0, 256, (B, T), device=dev)
    tgt = torch.randint(0, 256, (B, T), device=dev)

    def step():
        with torch.autocast("cuda", dtype=torch.bfloat16):
            loss = fwd(idx, tgt)
        loss.backward()
        opt.step()
        opt.zero_grad(set_to_none=True)
        return loss

    t0 = time.time()
    for _ in range(3):
        step()
    torch.cuda.synchronize()
    warm = time.time() - t0
    if os.environ.get("RL_PROFILE_STEP"):
        # one step between cudaProfilerStart/Stop, for ncu --profile-from-start off:
        # the compile, autotuning and warm-ups stay out of the profile
        torch.cuda.profiler.start()
        step()
        torch.cuda.synchronize()
        torch.cuda.profiler.stop()
    torch.cuda.reset_peak_memory_stats()
    a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    a.record()
    for _ in range(steps):
        loss = step()
    b.record()
    torch.cuda.synchronize()
    ms = a.elapsed_time(b)
    tok_s = steps * B * T / (ms / 1e3)
    # MFU is left to run.sh, which scales ours by tokens/s: the peak table
    # lives in common/hw.c alone
    print(f"torch-{mode} depth={depth} dim={dim} heads={heads} opt=adamw tokens_per_s={tok_s:.0f} "
          f"flops_per_token={model.flops_per_token():.4g} "
          f"allocated_mb={torch.cuda.max_memory_allocated() / 2**20:.0f} "
          f"params_M={sum(p.numel() for p in model.parameters()) / 1e6:.2f} "
          f"step_ms={ms / steps:.1f} warmup_s={warm:.1f} loss={loss.item():.4f} torch={torch.__version__}",
          flush=True)


if __name__ == "__main__":
    main()
