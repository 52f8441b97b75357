"""Multi-head attention forward: ours vs nn.MultiheadAttention and d2l 0.17.

Self-attention in eval mode without gradients, with one valid length per
example. Ours runs twice: keeping the attention weights (the book's path,
through DotProductAttention) and without them (FusedMultiHeadAttention,
PyTorch's fused scaled_dot_product_attention). Each is compared with the
reference that does the same amount of work: nn.MultiheadAttention with
need_weights=True / False, and d2l's MultiHeadAttention, which always keeps
its weights. Ratios are ours / reference: below 1 means ours is faster.

    .venv/bin/python bench/bench_multihead.py
"""

import statistics
import sys
import time
from pathlib import Path

import torch
from torch import nn

from d2l_attention import (
    FusedMultiHeadAttention,
    MultiHeadAttention,
    try_gpu,
    valid_lens_to_mask,
)

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))

from d2l_reference import import_d2l  # noqa: E402

# (batch_size, sequence length, num_hiddens, num_heads)
SIZES = [
    (32, 10, 64, 4),
    (32, 64, 256, 8),
    (8, 256, 512, 8),
    (4, 1024, 128, 8),
]
REPEATS = 15  # rounds of timings; the median is reported
MIN_SECONDS = 0.02  # each timing loops the call for at least this long


def median_seconds(calls, device):
    """Return {name: median seconds of one call} over REPEATS rounds.

    Each round times every implementation once, in turn, so that a change
    in the machine's load hits them all alike.
    """

    def sync():
        if device.type == "cuda":
            torch.cuda.synchronize()

    loops = {}
    for name, fn in calls.items():
        fn()  # warm-up
        sync()
        start, loops[name] = time.perf_counter(), 0
        while time.perf_counter() - start < MIN_SECONDS:
            fn()
            sync()
            loops[name] += 1
    times = {name: [] for name in calls}
    for _ in range(REPEATS):
        for name, fn in calls.items():
            sync()
            start = time.perf_counter()
            for _ in range(loops[name]):
                fn()
            sync()
            times[name].append((time.perf_counter() - start) / loops[name])
    return {name: statistics.median(t) for name, t in times.items()}


def build(d2l, num_hiddens, num_heads, device):
    """Return the five layers, all holding the same weights."""
    size = num_hiddens
    kept = MultiHeadAttention(size, size, size, size, num_heads, 0.0)
    fused = FusedMultiHeadAttention(size, size, size, size, num_heads, 0.0)
    fused.load_state_dict(kept.state_dict())
    book = d2l.MultiHeadAttention(size, size, size, size, num_heads, 0.0)
    book.load_state_dict(kept.state_dict())
    theirs = nn.MultiheadAttention(
        size, num_heads, bias=False, batch_first=True
    )
    with torch.no_grad():
        theirs.in_proj_weight.copy_(
            torch.cat([kept.W_q.weight, kept.W_k.weight, kept.W_v.weight])
        )
        theirs.out_proj.weight.copy_(kept.W_o.weight)
    return [layer.to(device).eval() for layer in (kept, fused, book, theirs)]


def bench_size(d2l, size, device):
    """Return the median seconds of each implementation at one size."""
    batch_size, seq_len, num_hiddens, num_heads = size
    kept, fused, book, theirs = build(d2l, num_hiddens, num_heads, device)
    X = torch.randn(batch_size, seq_len, num_hiddens, device=device)
    lens = torch.randint(1, seq_len + 1, (batch_size,), device=device)
    # (batch_size, seq_len): True where a key is padding, the negation of
    # our True = keep mask
    padding = ~valid_lens_to_mask(lens, seq_len)[:, 0]
    calls = {
        "ours, weights kept": lambda: kept(X, X, X, lens),
        "ours, no weights": lambda: fused(X, X, X, lens),
        "d2l 0.17": lambda: book(X, X, X, lens),
        "torch, need_weights": lambda: theirs(
            X, X, X, key_padding_mask=padding, need_weights=True
        ),
        "torch, no weights": lambda: theirs(
            X, X, X, key_padding_mask=padding, need_weights=False
        ),
    }
    with torch.no_grad():
        # same weights, so the same outputs: check before timing
        reference = book(X, X, X, lens)
        for name in ["ours, weights kept", "ours, no weights"]:
            assert torch.allclose(calls[name](), reference, atol=1e-4), name
        return median_seconds(calls, device)


def main():
    d2l = import_d2l()
    device = try_gpu()
    torch.manual_seed(0)
    print(
        f"multi-head attention forward on {device.type}, "
        f"{torch.get_num_threads()} threads; median of {REPEATS}; "
        "ratio = ours / reference (< 1: ours faster)"
    )
    header = (
        f"{'batch, len, hiddens, heads':>27} | {'kept':>8} "
        f"{'no w.':>8} {'d2l':>8} {'torch':>8} {'torch nw':>8} | "
        f"{'kept/d2l':>8} {'kept/tor':>8} {'nw/d2l':>8} {'nw/tornw':>8}"
    )
    print(header)
    print("-" * len(header))
    for size in SIZES:
        t = bench_size(d2l, size, device)
        kept, fused = t["ours, weights kept"], t["ours, no weights"]
        times = [
            kept,
            fused,
            t["d2l 0.17"],
            t["torch, need_weights"],
            t["torch, no weights"],
        ]
        ratios = [
            kept / t["d2l 0.17"],
            kept / t["torch, need_weights"],
            fused / t["d2l 0.17"],
            fused / t["torch, no weights"],
        ]
        print(
            f"{str(size):>27} | "
            + " ".join(f"{1000 * s:7.3f}m" for s in times)
            + " | "
            + " ".join(f"{r:8.2f}" for r in ratios)
        )
    print("times in milliseconds per call (m)")


if __name__ == "__main__":
    main()
