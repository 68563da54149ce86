"""batches.py - bench/torch/train.py's data and schedule functions printing
what tests/torch/batches.c prints from the trainer's own code (same
arguments, same format); needs numpy, not torch.
    python3 tests/torch/batches.py ROOT DATA_DIR B T STEPS"""
import sys

sys.path.insert(0, sys.argv[1] + "/bench/torch")
import train  # noqa: E402


def rows(what, x):
    for r in x:
        print(what + "".join(f" {int(v)}" for v in r))


def main():
    data, B, T, steps = sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
    tr, _ = train.load_split(data, "train")
    va, _ = train.load_split(data, "val")
    d = train.DEFAULTS
    rng = train.batch_rng(d["seed"])
    for _ in range(steps):
        x, y = train.train_batch(tr, rng, B, T)
        rows("train-in", x)
        rows("train-tg", y)
    nb = train.val_batches(len(va), B, T, d["eval_tokens"])
    print(f"val-batches {nb}")
    for i in range(min(nb, 2)):
        x, y = train.val_batch(va, i, B, T)
        rows("val-in", x)
        rows("val-tg", y)
    for k in range(21):
        m = train.lr_multiplier(k / 20.0, d["warmup_ratio"], d["warmdown_ratio"], d["final_lr_frac"])
        print(f"lr {k / 20.0:.2f} {m:.9f}")


main()
