"""train.py - the PyTorch reference model (model.py) trained for a wall-clock
budget the way `trainer` trains (issue 10 item 4, "the same 5-minute budget,
side by side"): the same prepared data (a `trainer prepare-data` directory),
the same batches (splitmix64 offsets seeded from train.seed, as
trainer/loop.c and trainer/data.c draw them), the same optimiser groups and
defaults (Muon on the block matrices, AdamW on the embedding and the head),
the same time-based LR schedule (trainer/run.c lr_multiplier) and val_bpb
over the same validation windows. What differs is the implementation:
PyTorch with bf16 autocast, SDPA and torch.compile (or eager).

torch.compile's compilation runs before the clock starts: three warm-up steps
on other batches, then the weights and optimiser state are put back to their
initial values, so the budget buys training only, as ours (which compiles
nothing at run time) gets it.

python3 bench/torch/train.py DATA_DIR [--budget S] [--mode compile|eager]
        [--depth N --dim N --heads N --seq N --batch N --total-batch N]

Prints progress on stderr and one key=value line on stdout (`torch-train
...`), the same figures the trainer's summary block gives.
"""
import argparse
import hashlib
import json
import math
import os
import sys
import time

import numpy as np

# trainer/config.c defaults (autoresearch's optimiser settings)
DEFAULTS = dict(matrix_lr=0.04, embedding_lr=0.6, unembedding_lr=0.004, weight_decay=0.2,
                beta1=0.8, beta2=0.95, muon_momentum=0.95, warmup_ratio=0.0, warmdown_ratio=0.5,
                final_lr_frac=0.0, seed=42, eval_tokens=10485760)
ADAM_EPS = 1e-8
M64 = (1 << 64) - 1
SHARD_HEADER = 64


# ---- data: the trainer's shard format and batch order (no torch needed) ----

def load_split(data_dir, split):
    """All tokens of one split, in manifest order, each shard's sha256 checked."""
    with open(os.path.join(data_dir, "manifest.json"), "rb") as f:
        raw = f.read()
    man = json.loads(raw)
    parts = []
    for sh in man["shards"]:
        if sh["split"] != split:
            continue
        path = os.path.join(data_dir, sh["file"])
        with open(path, "rb") as f:
            buf = f.read()
        if hashlib.sha256(buf).hexdigest() != sh["sha256"]:
            sys.exit(f"train.py: {path}: sha256 does not match {data_dir}/manifest.json")
        if buf[:8] != b"RLSHARD\0":
            sys.exit(f"train.py: {path}: not a token shard")
        width = int.from_bytes(buf[12:16], "little")
        count = int.from_bytes(buf[24:32], "little")
        dtype = np.uint8 if width == 1 else np.dtype("<u2")
        toks = np.frombuffer(buf, dtype=dtype, offset=SHARD_HEADER, count=count)
        parts.append(toks.copy())  # bytes stay bytes; a batch is widened when drawn
    if not parts:
        sys.exit(f"train.py: {data_dir}: no '{split}' shards in the manifest")
    return np.concatenate(parts), hashlib.sha256(raw).hexdigest()


class Splitmix64:
    """trainer/rng.h rng_next, on Python integers."""

    def __init__(self, state):
        self.s = state & M64

    def next(self):
        self.s = (self.s + 0x9E3779B97F4A7C15) & M64
        z = self.s
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
        return z ^ (z >> 31)


def batch_rng(seed):
    """trainer/loop.c batch_plan_init: seed * 0x2545F4914F6CDD1D + 1."""
    return Splitmix64(seed * 0x2545F4914F6CDD1D + 1)


def train_offsets(rng, ntrain, B, T):
    """trainer/data.c data_train_batch: B window starts, uniform over ntrain - T."""
    span = ntrain - T
    return np.array([rng.next() % span for _ in range(B)], dtype=np.int64)


def train_batch(train, rng, B, T):
    starts = train_offsets(rng, len(train), B, T)
    win = train[starts[:, None] + np.arange(T + 1)[None, :]].astype(np.int64)
    return win[:, :-1], win[:, 1:]


def val_batches(nval, B, T, eval_tokens):
    """trainer/data.c data_val_batches: whole batches of consecutive windows."""
    avail = nval - 1 if nval > 0 else 0
    return min(eval_tokens, avail) // (B * T)


def val_batch(val, i, B, T):
    base = i * B * T
    w = val[base:base + B * T + 1].astype(np.int64)
    return w[:-1].reshape(B, T), w[1:].reshape(B, T)


def lr_multiplier(p, warmup_ratio, warmdown_ratio, final_lr_frac):
    """trainer/run.c lr_multiplier, linear warmdown."""
    p = min(max(p, 0.0), 1.0)
    if warmup_ratio > 0 and p < warmup_ratio:
        return p / warmup_ratio
    stable_end = 1.0 - warmdown_ratio
    if warmdown_ratio <= 0 or p < stable_end:
        return 1.0
    w = (p - stable_end) / warmdown_ratio
    return 1.0 - (1.0 - final_lr_frac) * w


# ---- Muon (trainer/optim_ops.c muon_step, kernels/muon.cu) ----

class Muon:
    """Nesterov momentum in fp32, 5 quintic Newton-Schulz steps in bf16 on the
    wide orientation, decoupled weight decay: p -= lr*wd*p + lr*sqrt(max(1,
    rows/cols))*X. Matrices of one shape are stacked and orthogonalised in one
    batched product."""

    def __init__(self, params, lr, momentum, weight_decay):
        import torch
        self.torch = torch
        self.lr, self.mu, self.wd = lr, momentum, weight_decay
        self.groups = {}
        for p in params:
            self.groups.setdefault(tuple(p.shape), []).append(p)
        self.bufs = {s: torch.zeros((len(g),) + s, device=g[0].device) for s, g in self.groups.items()}

    def reset(self):
        for b in self.bufs.values():
            b.zero_()

    def newton_schulz5(self, X):
        a, b, c = 3.4445, -4.7750, 2.0315
        for _ in range(5):
            A = X @ X.mT
            Bm = b * A + c * (A @ A)
            X = a * X + Bm @ X
        return X

    def step(self, lr_mult):
        torch = self.torch
        lr = self.lr * lr_mult
        with torch.no_grad():
            for shape, ps in self.groups.items():
                rows, cols = shape
                g = torch.stack([p.grad for p in ps])
                buf = self.bufs[shape]
                buf.mul_(self.mu).add_(g)
                u = g + self.mu * buf
                norm = u.square().sum(dim=(1, 2), keepdim=True).sqrt()
                X = (u / (norm + 1e-7)).bfloat16()
                if rows > cols:
                    X = X.mT
                X = self.newton_schulz5(X)
                if rows > cols:
                    X = X.mT
                X = X.float()
                s = lr * math.sqrt(max(1.0, rows / cols))
                for i, p in enumerate(ps):
                    p.mul_(1.0 - lr * self.wd).add_(X[i], alpha=-s)


# ---- training ----

def parse_args(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("data")
    ap.add_argument("--budget", type=float, default=300.0, help="training seconds (train.time_budget_s)")
    ap.add_argument("--mode", choices=("compile", "eager"), default="compile")
    ap.add_argument("--depth", type=int, default=8)
    ap.add_argument("--dim", type=int, default=512)
    ap.add_argument("--heads", type=int, default=4)
    ap.add_argument("--seq", type=int, default=2048)
    ap.add_argument("--batch", type=int, default=64, help="train.device_batch_size")
    ap.add_argument("--total-batch", type=int, default=524288, help="train.total_batch_size")
    ap.add_argument("--steps", type=int, default=0,
                    help="0 = train for --budget; N = exactly N steps, LR progress step/N (train.steps)")
    ap.add_argument("--device", default="cuda")
    ap.add_argument("--warmup-steps", type=int, default=3)
    return ap.parse_args(argv)


def main(argv):
    args = parse_args(argv)
    import torch
    from model import GPT

    cfg = DEFAULTS
    B, T = args.batch, args.seq
    accum = args.total_batch // (B * T)
    if accum < 1 or accum * B * T != args.total_batch:
        sys.exit("train.py: --total-batch must be a multiple of --batch * --seq")
    dev = args.device
    t_load = time.time()
    train, man_sha = load_split(args.data, "train")
    val, _ = load_split(args.data, "val")
    print(f"# data {args.data}: {len(train)} train + {len(val)} val tokens, manifest sha256 "
          f"{man_sha[:16]}, {time.time() - t_load:.1f} s", file=sys.stderr, flush=True)

    torch.manual_seed(cfg["seed"])
    model = GPT(depth=args.depth, dim=args.dim, heads=args.heads, seq_len=T).to(dev)
    matrices = [p for b in model.blocks for p in b.parameters()]
    adam = torch.optim.AdamW(
        [dict(params=[model.wte.weight], lr=cfg["embedding_lr"]),
         dict(params=[model.lm_head.weight], lr=cfg["unembedding_lr"])],
        betas=(cfg["beta1"], cfg["beta2"]), eps=ADAM_EPS, weight_decay=0.0,
        **(dict(fused=True) if dev.startswith("cuda") else {}))
    base_lrs = [g["lr"] for g in adam.param_groups]
    muon = Muon(matrices, cfg["matrix_lr"], cfg["muon_momentum"], cfg["weight_decay"])
    fwd = torch.compile(model) if args.mode == "compile" else model
    amp = dict(device_type="cuda" if dev.startswith("cuda") else "cpu", dtype=torch.bfloat16)

    def to_dev(a):
        return torch.from_numpy(np.ascontiguousarray(a)).to(dev, non_blocking=True)

    def step(batches, lr_mult):
        for g, base in zip(adam.param_groups, base_lrs):
            g["lr"] = base * lr_mult
        total = None
        for x, y in batches:
            with torch.autocast(**amp):
                loss = fwd(x, y)
            (loss / accum).backward()
            total = loss.detach() if total is None else total + loss.detach()
        muon.step(lr_mult)
        adam.step()
        model.zero_grad(set_to_none=True)
        return total / accum

    def next_batches(rng):
        return [tuple(map(to_dev, train_batch(train, rng, B, T))) for _ in range(accum)]

    def sync():
        if dev.startswith("cuda"):
            torch.cuda.synchronize()

    # warm-up (compilation) on other batches, then back to the initial state
    init = {k: v.detach().clone() for k, v in model.state_dict().items()}
    t0 = time.time()
    warm_rng = batch_rng(cfg["seed"] + 1)
    for _ in range(args.warmup_steps):
        step(next_batches(warm_rng), 1.0)
    sync()
    warmup_s = time.time() - t0
    model.load_state_dict(init)
    muon.reset()
    adam.state.clear()
    del init
    if dev.startswith("cuda"):
        torch.cuda.reset_peak_memory_stats()
    print(f"# warm-up ({args.mode}) {warmup_s:.1f} s", file=sys.stderr, flush=True)

    rng = batch_rng(cfg["seed"])
    tokens_per_step = accum * B * T
    steps, training_s, loss_v = 0, 0.0, float("nan")
    batches = next_batches(rng)
    sync()
    t_start = time.time()
    def progress():  # trainer/run.c run_schedule_progress
        return steps / args.steps if args.steps > 0 else training_s / args.budget

    while progress() < 1.0:
        mult = lr_multiplier(progress(), cfg["warmup_ratio"], cfg["warmdown_ratio"], cfg["final_lr_frac"])
        loss = step(batches, mult)
        batches = next_batches(rng)  # drawn on the CPU while the GPU runs the step
        loss_v = loss.item()  # one host wait a step, as the trainer's loss read-back
        steps += 1
        training_s = time.time() - t_start
        if not math.isfinite(loss_v):
            sys.exit(f"train.py: loss is {loss_v} at step {steps}")
        if steps % 25 == 0 or args.steps > 0:
            left = (training_s / steps * (args.steps - steps) if args.steps > 0 else args.budget - training_s)
            print(f"step {steps:5d} | loss {loss_v:.4f} | lr x{mult:.3f} | "
                  f"{steps * tokens_per_step / training_s:8.0f} tok/s | {max(left, 0.0):5.1f}s left",
                  file=sys.stderr, flush=True)
    peak_mb = torch.cuda.max_memory_allocated() / 2**20 if dev.startswith("cuda") else 0.0

    t_eval = time.time()
    nb = val_batches(len(val), B, T, cfg["eval_tokens"])
    evB = B
    if nb == 0:  # small splits: single sequences, as trainer/loop.c
        evB, nb = 1, val_batches(len(val), 1, T, cfg["eval_tokens"])
    total = 0.0
    model.eval()
    with torch.no_grad():
        for i in range(nb):
            x, y = map(to_dev, val_batch(val, i, evB, T))
            with torch.autocast(**amp):
                total += model(x, y).item()
    val_bpb = total / nb / math.log(2)
    eval_s = time.time() - t_eval
    tokens = steps * tokens_per_step
    print(f"torch-train mode={args.mode} depth={args.depth} dim={args.dim} heads={args.heads} "
          f"opt=muon val_bpb={val_bpb:.6f} num_steps={steps} total_tokens_M={tokens / 1e6:.1f} "
          f"training_seconds={training_s:.1f} tokens_per_s={tokens / training_s:.0f} "
          f"peak_mb={peak_mb:.0f} train_loss={loss_v:.4f} val_batches={nb} warmup_s={warmup_s:.1f} "
          f"eval_s={eval_s:.1f} data_sha256={man_sha} torch={torch.__version__}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
