"""Attention layers against their references: d2l 0.17.6 and PyTorch.

- masked softmax (notebook 01) against d2l's;
- dot-product attention (notebook 03) against d2l's and PyTorch's
  F.scaled_dot_product_attention;
- multi-head attention (notebook 04) keeping its weights (the book's path)
  against d2l's and nn.MultiheadAttention(need_weights=True), and the fused
  FusedMultiHeadAttention against nn.MultiheadAttention(need_weights=False).

Forward passes in eval mode without gradients, both sides on the same
inputs and weights (their outputs are checked equal first), at one thread
and torch's default, in interleaved rounds (bench/timing.py). Prints the
median microseconds per call and the ratio ours / reference (below 1: ours
is faster).

    .venv/bin/python -m bench.bench_attention [--rounds N] [--threads 1,2]
"""

import argparse
import statistics

import torch
from torch import nn
from torch.nn import functional as F

from bench.timing import interleaved, thread_counts
from d2l_attention import (
    DotProductAttention,
    FusedMultiHeadAttention,
    MultiHeadAttention,
    masked_softmax,
    try_gpu,
    valid_lens_to_mask,
)
from tests.d2l_reference import import_d2l

SCORING_SIZES = [(64, 10, 10, 32), (32, 64, 64, 64), (16, 256, 256, 64)]
MULTIHEAD_SIZES = [(32, 10, 64, 4), (32, 64, 256, 8), (8, 256, 512, 8)]


def scoring_calls(d2l, size, device):
    """Return the calls and the (label, ours, reference) pairs to compare,
    for a batch of queries and keys of size (batch, queries, keys, d)."""
    batch, n, m, d = size
    gen = torch.Generator().manual_seed(0)
    X, q, k, v = (
        torch.randn(shape, generator=gen).to(device)
        for shape in [
            (batch, n, m),
            (batch, n, d),
            (batch, m, d),
            (batch, m, d),
        ]
    )
    lens = torch.randint(1, m + 1, (batch,), generator=gen).to(device)
    mask = valid_lens_to_mask(lens, m)  # (batch, 1, m), True = keep
    ours = DotProductAttention(0.0).eval()
    book = d2l.DotProductAttention(0.0).eval()
    assert torch.allclose(ours(q, k, v, lens), book(q, k, v, lens), atol=1e-5)
    calls = {
        "softmax": lambda: masked_softmax(X, lens),
        # d2l's writes into its input, so it gets a fresh copy each call;
        # the copy alone is timed too and its time subtracted
        "d2l softmax + copy": lambda: d2l.masked_softmax(X.clone(), lens),
        "copy": lambda: X.clone(),
        "dot": lambda: ours(q, k, v, lens),
        "d2l dot": lambda: book(q, k, v, lens),
        "sdpa": lambda: F.scaled_dot_product_attention(
            q, k, v, attn_mask=mask
        ),
    }
    pairs = [
        ("masked softmax / d2l", "softmax", "d2l softmax"),
        ("dot-product / d2l", "dot", "d2l dot"),
        ("dot-product / F.sdpa", "dot", "sdpa"),
    ]
    return calls, pairs


def multihead_calls(d2l, size, device):
    """Return the calls and pairs for self-attention of size (batch,
    length, num_hiddens, num_heads), every layer with the same weights."""
    batch, length, h, heads = size
    kept = MultiHeadAttention(h, h, h, h, heads, 0.0)
    fused = FusedMultiHeadAttention(h, h, h, h, heads, 0.0)
    book = d2l.MultiHeadAttention(h, h, h, h, heads, 0.0)
    fused.load_state_dict(kept.state_dict())
    book.load_state_dict(kept.state_dict())
    theirs = nn.MultiheadAttention(h, heads, bias=False, batch_first=True)
    with torch.no_grad():
        theirs.in_proj_weight.copy_(
            torch.cat([kept.W_q.weight, kept.W_k.weight, kept.W_v.weight])
        )
        theirs.out_proj.weight.copy_(kept.W_o.weight)
    kept, fused, book, theirs = (
        layer.to(device).eval() for layer in (kept, fused, book, theirs)
    )
    X = torch.randn(batch, length, h, device=device)
    lens = torch.randint(1, length + 1, (batch,), device=device)
    padding = ~valid_lens_to_mask(lens, length)[:, 0]  # True = padding
    calls = {
        "kept": lambda: kept(X, X, X, lens),
        "fused": lambda: fused(X, X, X, lens),
        "d2l": lambda: book(X, X, X, lens),
        "torch weights": lambda: theirs(
            X, X, X, key_padding_mask=padding, need_weights=True
        )[0],
        "torch": lambda: theirs(
            X, X, X, key_padding_mask=padding, need_weights=False
        )[0],
    }
    for name in calls:
        assert torch.allclose(calls[name](), calls["d2l"](), atol=1e-4), name
    pairs = [
        ("multi-head, weights / d2l", "kept", "d2l"),
        ("multi-head, weights / torch", "kept", "torch weights"),
        ("multi-head, fused / torch", "fused", "torch"),
    ]
    return calls, pairs


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--threads", default="1,default")
    args = parser.parse_args()
    d2l, device = import_d2l(), try_gpu()
    torch.manual_seed(0)
    print(
        f"torch {torch.__version__}, {device}; microseconds per call, "
        f"medians of {args.rounds} interleaved rounds"
    )
    print(
        f"{'':29}{'size':>18}{'threads':>8}{'ours':>10}{'ref':>10}{'ratio':>7}"
    )
    cases = [(scoring_calls, size) for size in SCORING_SIZES] + [
        (multihead_calls, size) for size in MULTIHEAD_SIZES
    ]
    for num_threads in thread_counts(args.threads, torch.get_num_threads()):
        for make, size in cases:
            with torch.no_grad():
                calls, pairs = make(d2l, size, device)
                times = interleaved(calls, num_threads, args.rounds, 0.05)
            us = {
                name: 1e6 * statistics.median(t) for name, t in times.items()
            }
            if "copy" in us:
                us["d2l softmax"] = us["d2l softmax + copy"] - us["copy"]
            for label, mine, ref in pairs:
                print(
                    f"{label:29}{'x'.join(map(str, size)):>18}"
                    f"{num_threads:8}{us[mine]:10.1f}{us[ref]:10.1f}"
                    f"{us[mine] / us[ref]:7.2f}"
                )


if __name__ == "__main__":
    main()
