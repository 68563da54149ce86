#!/usr/bin/env python3
"""cupti_steps.py — one step's wall time split into kernel time and idle
time, from bench/cupti_trace.c's output of a bench_kernels_model bench run.

    python3 bench/cupti_steps.py trace.txt [WARMUPS]

Steps are delimited by the loss read-back (the one small device-to-host
memcpy a step, bench without graphs; a trace without the copy kind
counts every small copy, so a step's small upload splits it in two); the first WARMUPS (default 3) steps
are dropped. Prints, per timed step on average: wall (end of one read-back
to the end of the next), the sum of kernel durations, the busy time (the
union of kernel intervals), idle = wall - busy split into gaps by size, and
each kernel family's time a step, largest first. With a graph (no
read-back a step) the whole trace after the last small memcpy is one
window, divided by the step count given as WARMUPS=-N."""
import re
import sys


def family(name):
    if any(s in name for s in ("gemm", "xmma", "cutlass", "sm90_", "cublas", "splitKreduce")):
        return "cuBLAS"
    if name.startswith("_Z"):
        m = re.match(r"_Z(?:N\d+\w+?)?(\d+)", name)
        if m:
            n = int(m.group(1))
            start = m.end()
            name = name[start:start + n]
    else:
        name = re.split(r"[(<]", name)[0].strip()
        name = name.split()[-1] if name.split() else name
    return name


def load(path):
    kernels, copies = [], []
    with open(path) as f:
        for line in f:
            p = line.split(" ", 3)
            if p[0] == "K":
                kernels.append((int(p[1]), int(p[2]), family(p[3].strip())))
            elif p[0] == "M":
                q = p[3].split()
                # (start, end, bytes, kind); kind 2 = device to host, -1 unknown
                copies.append((int(p[1]), int(p[2]), int(q[0]), int(q[1]) if len(q) > 1 else -1))
    kernels.sort()
    copies.sort()
    return kernels, copies


def window_stats(ks, t0, t1):
    inside = [k for k in ks if k[0] >= t0 and k[1] <= t1]
    ksum = sum(e - s for s, e, _ in inside)
    busy, gaps, cur_end = 0, [], t0
    for s, e, _ in inside:
        if s > cur_end:
            gaps.append(s - cur_end)
        if e > cur_end:
            busy += e - max(s, cur_end)
            cur_end = e
    if t1 > cur_end:
        gaps.append(t1 - cur_end)
    fam = {}
    for s, e, n in inside:
        fam[n] = fam.get(n, 0) + (e - s)
    return len(inside), ksum, busy, gaps, fam


def main():
    path = sys.argv[1]
    warm = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    ks, cs = load(path)
    # the loss read-back: small and device to host (the schedule's upload is small too)
    small = [c for c in cs if c[2] <= 64 and c[3] in (2, -1)]
    if warm >= 0:
        wins = [(small[i][1], small[i + 1][1]) for i in range(warm - 1, len(small) - 1)]
    else:
        wins = [(small[-1][1] if small else ks[0][0], ks[-1][1])]
    steps = len(wins) if warm >= 0 else -warm
    tot = {"n": 0, "wall": 0, "ksum": 0, "busy": 0}
    gaps_all, fam_all = [], {}
    for t0, t1 in wins:
        n, ksum, busy, gaps, fam = window_stats(ks, t0, t1)
        tot["n"] += n
        tot["wall"] += t1 - t0
        tot["ksum"] += ksum
        tot["busy"] += busy
        gaps_all += gaps
        for k, v in fam.items():
            fam_all[k] = fam_all.get(k, 0) + v
    ms = lambda ns: ns / steps / 1e6
    print(f"steps {steps}: kernels/step {tot['n'] / steps:.0f}, wall {ms(tot['wall']):.3f} ms, "
          f"kernel sum {ms(tot['ksum']):.3f}, busy {ms(tot['busy']):.3f}, "
          f"idle {ms(tot['wall'] - tot['busy']):.3f} ms")
    for lo, hi in ((0, 2000), (2000, 5000), (5000, 20000), (20000, 10**12)):
        g = [x for x in gaps_all if lo <= x < hi]
        print(f"  gaps {lo / 1e3:g}-{hi / 1e3:g} us: {len(g) / steps:.1f}/step, {ms(sum(g)):.3f} ms/step")
    big = sorted(gaps_all, reverse=True)[:5]
    print("  largest gaps (us):", " ".join(f"{g / 1e3:.1f}" for g in big))
    for k, v in sorted(fam_all.items(), key=lambda kv: -kv[1]):
        print(f"  {ms(v):8.3f} ms  {k}")


if __name__ == "__main__":
    main()
