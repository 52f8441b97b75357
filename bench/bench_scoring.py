"""Masked softmax and dot-product attention: ours vs d2l 0.17.6 vs SDPA.

Prints median times and the ratio ours / reference, measured in the same
run (a ratio below 1 means ours is faster).
"""

import sys
from pathlib import Path

import torch
from torch.nn import functional as F
from torch.utils.benchmark import Timer

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))

from d2l_attention import DotProductAttention, masked_softmax  # noqa: E402
from d2l_reference import import_d2l  # noqa: E402

SIZES = [  # batch, queries, keys, d
    (8, 10, 10, 32), (64, 10, 10, 32), (32, 64, 64, 64), (16, 256, 256, 64)]


def median_us(fn):
    """Median run time of fn() in microseconds."""
    timer = Timer(stmt="fn()", globals={"fn": fn})
    return timer.blocked_autorange(min_run_time=0.3).median * 1e6


def bench_size(d2l, batch, n, m, d):
    """Return (softmax ours, softmax d2l, dot ours, dot d2l, sdpa) in us."""
    gen = torch.Generator().manual_seed(0)
    X = torch.randn(batch, n, m, generator=gen)
    q = torch.randn(batch, n, d, generator=gen)
    k = torch.randn(batch, m, d, generator=gen)
    v = torch.randn(batch, m, d, generator=gen)
    lens = torch.randint(1, m + 1, (batch,), generator=gen)
    mask = torch.arange(m) < lens[:, None, None]  # (batch, 1, m)
    ours, ref = DotProductAttention(0.0).eval(), d2l.DotProductAttention(0.0)
    ref.eval()
    with torch.no_grad():
        return (median_us(lambda: masked_softmax(X, lens)),
                # d2l writes into its input: give it a fresh copy each call,
                # and time the copy alone to subtract it
                median_us(lambda: d2l.masked_softmax(X.clone(), lens))
                - median_us(lambda: X.clone()),
                median_us(lambda: ours(q, k, v, lens)),
                median_us(lambda: ref(q, k, v, lens)),
                median_us(lambda: F.scaled_dot_product_attention(
                    q, k, v, attn_mask=mask)))


def main():
    d2l = import_d2l()
    print(f"torch {torch.__version__}, {torch.get_num_threads()} threads, "
          "CPU; times are medians in microseconds")
    print(f"{'batch x q x k x d':>20} | {'softmax':>7} {'d2l':>7} {'ratio':>6}"
          f" | {'dot':>7} {'d2l':>7} {'ratio':>6} | {'sdpa':>7} {'ratio':>6}")
    for size in SIZES:
        sm, sm_ref, dot, dot_ref, sdpa = bench_size(d2l, *size)
        name = " x ".join(map(str, size))
        print(f"{name:>20} | {sm:7.1f} {sm_ref:7.1f} {sm / sm_ref:6.2f} | "
              f"{dot:7.1f} {dot_ref:7.1f} {dot / dot_ref:6.2f} | "
              f"{sdpa:7.1f} {dot / sdpa:6.2f}")


if __name__ == "__main__":
    main()
