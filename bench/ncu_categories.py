#!/usr/bin/env python3
"""ncu_categories.py — an ncu --csv --page raw file (metric
gpu__time_duration.sum) summed by category, for the side-by-side of ours
and torch.compile in docs/performance.md.

    python3 bench/ncu_categories.py NCU.csv [STEPS] [--kernels N]
    python3 bench/ncu_categories.py A.csv STEPS_A B.csv STEPS_B
    python3 bench/ncu_categories.py --details FILE...

The second form prints the two side by side (ms a step, B - A); the
third, from ncu --page details files (--set full), a few metrics of each
profiled kernel (time, throughput, occupancy, registers, L2 and DRAM).

STEPS (default 1) divides every sum: ours is profiled over 3 warm-ups and
one step (STEPS=4), torch.compile over one step between
cudaProfilerStart/Stop (bench.py with RL_PROFILE_STEP=1, STEPS=1).
Categories come from kernel names; torch.compile's Triton kernels are named
after the aten ops they fuse (triton_{poi,red,per}_fused_<ops>), so a
fusion lands in the first matching category in the order below, and
--kernels N lists the N largest kernels by name to check that."""
import csv
import re
import sys

# (category, pattern), first match wins; ours first, then torch's names
RULES = [
    # attention before GEMM: cuDNN's SDPA kernels are named sm90_..._wgmma
    ("attention fwd", r"flash_wg_forward|flash_forward|flash_fwd|fmha.*fwd|attention_fwd|causal_softmax_forward|sdpa.*fprop|_fwd_kernel"),
    ("attention bwd", r"flash_wg_dq|flash_wg_dkdv|flash_dq|flash_dkdv|flash_dsum|flash_bwd|fmha.*bwd|attention_bwd|causal_softmax_backward|sdpa.*bprop|dot_do_o|convert_dq|_bwd_|bwd_kernel"),
    # our own GEMM (gemm_wgmma.cu): the QKV product with QK-norm + rotary in
    # its epilogue (template epilogue 3, GEMM_ROTARY; demangled or mangled),
    # and the MLP's two products with relu² in theirs
    ("QKV GEMM + rotary (ours)", r"gemm_wgmma_kernel<\s*0,\s*3>|gemm_wgmma_kernelILi0ELi3E"),
    ("GEMM + relu² (ours)", r"gemm_wgmma"),
    ("GEMM", r"gemm|xmma|cutlass|sm90_|cublas|splitKreduce|nvjet|matmul"),
    ("optimiser", r"adam|muon|multi_tensor|foreach|clip_scale|sumsq|_amp_"),
    ("cross-entropy", r"xent|crossentropy|nll_loss|log_softmax|tanh"),
    ("embedding", r"embedding|indexing|scatter|gather"),
    ("rotary + QK-norm", r"rotary|heads_permute|_cat_|_cat$|_neg_"),
    ("activation (relu²)", r"relu|pow|threshold"),
    ("norm (rmsnorm)", r"rmsnorm|rms_norm|rsqrt"),
]
SCALE = {"nsecond": 1.0, "ns": 1.0, "usecond": 1e3, "us": 1e3, "msecond": 1e6, "ms": 1e6, "second": 1e9, "s": 1e9}


def category(name):
    for cat, pat in RULES:
        if re.search(pat, name, re.I):
            return cat
    return "other"


def load(path):
    rows = []
    with open(path, newline="") as f:
        lines = [l for l in f if l.startswith('"')]
    rd = csv.DictReader(lines)
    scale = 1.0
    for r in rd:
        t = r.get("gpu__time_duration.sum", "")
        if t in SCALE:  # the units row
            scale = SCALE[t]
            continue
        clk = r.get("sm__cycles_elapsed.avg.per_second", "")
        try:
            t = float(t.replace(",", ""))
        except ValueError:
            continue  # the units row
        try:
            clk = float(clk.replace(",", ""))
        except ValueError:
            clk = 0.0
        rows.append((r.get("Kernel Name", "?"), t * scale, clk))
    return rows


def by_category(rows):
    cats, n, clkw = {}, {}, {}
    for name, t, clk in rows:
        c = category(name)
        cats[c] = cats.get(c, 0.0) + t
        n[c] = n.get(c, 0) + 1
        clkw[c] = clkw.get(c, 0.0) + t * clk
    return cats, n, clkw


def side_by_side(a, sa, b, sb):
    (ca, na, _), (cb, nb, _) = by_category(load(a)), by_category(load(b))
    print(f"# A = {a} (/ {sa:g} steps), B = {b} (/ {sb:g} steps); ms a step")
    print("| category | A launches | A ms | B launches | B ms | B - A ms |")
    print("|---|---:|---:|---:|---:|---:|")
    names = sorted(set(ca) | set(cb), key=lambda c: -(ca.get(c, 0) + cb.get(c, 0)))
    for c in names:
        x, y = ca.get(c, 0.0) / sa / 1e6, cb.get(c, 0.0) / sb / 1e6
        print(f"| {c} | {na.get(c, 0) / sa:g} | {x:.2f} | {nb.get(c, 0) / sb:g} | {y:.2f} | {y - x:+.2f} |")
    x, y = sum(ca.values()) / sa / 1e6, sum(cb.values()) / sb / 1e6
    print(f"| **sum** | {sum(na.values()) / sa:g} | **{x:.2f}** | {sum(nb.values()) / sb:g} | **{y:.2f}** | **{y - x:+.2f}** |")


DETAILS = ("Duration", "Compute (SM) Throughput", "Memory Throughput", "DRAM Throughput",
           "L2 Cache Throughput", "Registers Per Thread", "Achieved Occupancy",
           "Theoretical Occupancy", "Executed Ipc Active", "SM Frequency",
           "lts__t_sectors_op_red.sum", "lts__t_sectors_op_atom.sum",
           "dram__bytes_read.sum", "dram__bytes_write.sum",
           "Warp Cycles Per Issued Instruction", "No Eligible", "Issue Slots Busy")


def details(paths):
    for path in paths:
        with open(path, newline="") as f:
            lines = [l for l in f if l.startswith('"')]
        print(f"# {path}")
        for r in csv.DictReader(lines):
            if r.get("Metric Name") in DETAILS:
                print(f"{r.get('ID', '?'):>3} {r.get('Kernel Name', '?')[:48]:48} "
                      f"{r['Metric Name']:24} {r.get('Metric Value', '')} {r.get('Metric Unit', '')}")


def main():
    args, top = sys.argv[1:], 0
    if args and args[0] == "--details":
        details(args[1:])
        return
    if "--kernels" in args:
        i = args.index("--kernels")
        top = int(args[i + 1])
        del args[i:i + 2]
    if len(args) == 4:
        side_by_side(args[0], float(args[1]), args[2], float(args[3]))
        return
    path, steps = args[0], float(args[1]) if len(args) > 1 else 1.0
    rows = load(path)
    cats, n, clkw = by_category(rows)
    total = sum(cats.values())
    print(f"# {path}: {len(rows)} kernels, / {steps:g} steps")
    print("| category | launches a step | ms a step | SM MHz |")
    print("|---|---:|---:|---:|")
    for c in sorted(cats, key=lambda c: -cats[c]):
        print(f"| {c} | {n[c] / steps:g} | {cats[c] / steps / 1e6:.2f} | {clkw[c] / cats[c] / 1e6:.0f} |")
    print(f"| **sum** | **{len(rows) / steps:g}** | **{total / steps / 1e6:.2f}** | |")
    if top:
        byname = {}
        for name, t, _ in rows:
            k = name[:110]
            a = byname.setdefault(k, [0.0, 0])
            a[0] += t
            a[1] += 1
        print(f"\n| kernel ({top} largest) | category | launches a step | ms a step |")
        print("|---|---|---:|---:|")
        for k, (t, c) in sorted(byname.items(), key=lambda kv: -kv[1][0])[:top]:
            print(f"| `{k}` | {category(k)} | {c / steps:g} | {t / steps / 1e6:.3f} |")


if __name__ == "__main__":
    main()
