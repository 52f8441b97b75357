"""Masked softmax and dot-product attention: ours vs d2l 0.17.6 vs SDPA.

Prints median times and the ratio ours / reference, measured in the same
run (a ratio below 1 means ours is faster).
"""

import statistics
import sys
from pathlib import Path

import torch
from torch.nn import functional as F
from torch.utils.benchmark import Timer

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))

from d2l_attention import (  # noqa: E402
    DotProductAttention,
    masked_softmax,
    valid_lens_to_mask,
)
from d2l_reference import import_d2l  # noqa: E402

SIZES = [  # batch, queries, keys, d
    (8, 10, 10, 32), (64, 10, 10, 32), (32, 64, 64, 64), (16, 256, 256, 64)]


ROUNDS = 7  # interleaved rounds per size; each figure is their median


def time_us(fn):
    """Median run time of fn() in microseconds, over about 0.1 s."""
    timer = Timer(stmt="fn()", globals={"fn": fn})
    return timer.blocked_autorange(min_run_time=0.1).median * 1e6


def bench_size(d2l, batch, n, m, d):
    """Return (softmax ours, softmax d2l, dot ours, dot d2l, sdpa) in us."""
    gen = torch.Generator().manual_seed(0)
    X = torch.randn(batch, n, m, generator=gen)
    q = torch.randn(batch, n, d, generator=gen)
    k = torch.randn(batch, m, d, generator=gen)
    v = torch.randn(batch, m, d, generator=gen)
    lens = torch.randint(1, m + 1, (batch,), generator=gen)
    mask = valid_lens_to_mask(lens, m)  # (batch, 1, m)
    ours, ref = DotProductAttention(0.0).eval(), d2l.DotProductAttention(0.0)
    ref.eval()
    calls = [
        lambda: masked_softmax(X, lens),
        # d2l writes into its input: it gets a fresh copy each call, and
        # the copy's own time (measured next) is subtracted
        lambda: d2l.masked_softmax(X.clone(), lens),
        lambda: X.clone(),
        lambda: ours(q, k, v, lens),
        lambda: ref(q, k, v, lens),
        lambda: F.scaled_dot_product_attention(q, k, v, attn_mask=mask),
    ]
    with torch.no_grad():
        rounds = [[time_us(call) for call in calls] for _ in range(ROUNDS)]
    sm, sm_ref, copy, dot, dot_ref, sdpa = map(statistics.median,
                                                zip(*rounds))
    return sm, sm_ref - copy, dot, dot_ref, sdpa


def main():
    d2l = import_d2l()
    print(f"torch {torch.__version__}, {torch.get_num_threads()} threads, "
          f"CPU; microseconds, medians of {ROUNDS} interleaved rounds")
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
