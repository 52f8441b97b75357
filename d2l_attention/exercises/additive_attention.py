"""The checks of the exercises of notebook 02:
notebooks/02_additive_attention.ipynb."""

import torch

from ..additive_attention import AdditiveAttention
from .kit import call_answer, not_yet, right, shape_hint

__all__ = [
    "check_permuted_output",
]


def _reordering_hint(out, attention, queries, keys, values, perm, valid_lens):
    """Return what a wrong output of exercise 02 B got wrong."""

    def close(a, b):
        return torch.allclose(a, b, atol=1e-5)

    if close(out, attention(queries, keys[:, perm], values, valid_lens)):
        return not_yet(
            "the keys were reordered, but not the values: reorder both by perm"
        )
    if close(out, attention(queries, keys, values[:, perm], valid_lens)):
        return not_yet(
            "the values were reordered, but not the keys: reorder both by perm"
        )
    if valid_lens is not None and close(
        out, attention(queries, keys[:, perm], values[:, perm])
    ):
        return not_yet(
            "the valid lengths were left out: pass valid_lens to attention"
        )
    if close(out, attention(queries, keys, values, valid_lens)):
        return not_yet(
            "with valid lengths, this is the output in the original order: "
            "reorder the keys and the values, keys[:, perm] and values[:, "
            "perm]"
        )
    return not_yet(
        "the output is not that of `attention` for `keys[:, perm]` and "
        "`values[:, perm]`"
    )


def check_permuted_output(permuted_output):
    """Check exercise 02 B: attention over keys and values reordered."""
    with torch.random.fork_rng():  # leaves the notebook's random state
        torch.manual_seed(0)
        attention = AdditiveAttention(2, 20, num_hiddens=8, dropout=0)
        queries, keys = torch.randn(2, 1, 20), torch.randn(2, 10, 2)
        values = torch.randn(2, 10, 4)
    attention.eval()
    perm = torch.tensor([3, 7, 0, 9, 1, 5, 8, 2, 6, 4])
    for valid_lens in (None, torch.tensor([2, 6])):
        with torch.no_grad():
            out, hint = call_answer(
                permuted_output,
                attention,
                queries,
                keys,
                values,
                perm,
                valid_lens,
            )
            hint = hint or shape_hint(out, (2, 1, 4))
            if hint:
                return hint
            out = out.float()
            expected = attention(
                queries, keys[:, perm], values[:, perm], valid_lens
            )
            if not torch.allclose(out, expected, atol=1e-5):
                return _reordering_hint(
                    out, attention, queries, keys, values, perm, valid_lens
                )
    return right(
        "keys and values reordered together, with and without valid lengths"
    )
