"""The checks of the exercises of notebook 03:
notebooks/03_scaled_dot_product_attention.ipynb."""

import torch
from torch import nn

from ..language import tr
from .kit import call_answer, not_yet, right, shape_hint

__all__ = [
    "check_bilinear_attention",
]


def _bilinear_hint(layer, queries, keys, values, valid_lens):
    """Return a hint unless layer gives masked weights and their output."""
    out, hint = call_answer(layer, queries, keys, values, valid_lens)
    hint = hint or shape_hint(out, (2, 1, 4))
    if hint:
        return hint
    weights = getattr(layer, "attention_weights", None)
    if weights is None:
        return not_yet("keep the weights in self.attention_weights")
    hint = shape_hint(weights, (2, 1, 10))
    if hint:
        return hint
    weights, out = weights.detach().float(), out.detach().float()
    if not torch.allclose(weights.sum(-1), torch.ones(2, 1)):
        return not_yet(
            "the weights must sum to one over the keys: take the "
            "masked_softmax of the scores"
        )
    if (weights[0, :, 2:] != 0).any():
        return not_yet(
            "a key past the valid length got a weight: pass valid_lens to "
            "masked_softmax"
        )
    if not torch.allclose(out, torch.bmm(weights, values), atol=1e-5):
        return not_yet(
            "the output must be the weights times the values, "
            "torch.bmm(weights, values)"
        )
    return None


def _score_gaps(layer, queries, keys, values, valid_lens):
    """Return each valid key's score minus the first key's, from the
    weights (log w_j - log w_0)."""
    with torch.no_grad():
        layer(queries, keys, values, valid_lens)
    log_weights = layer.attention_weights.detach().double().log()
    return [
        log_weights[i, 0, 1:n] - log_weights[i, 0, 0]
        for i, n in enumerate(valid_lens.tolist())
    ]


def check_bilinear_attention(BilinearAttention):
    """Check exercise 03 2: a score of matrix products, any lengths."""
    generator = torch.Generator().manual_seed(0)
    queries = torch.randn(2, 1, 20, generator=generator)
    keys = torch.randn(2, 10, 2, generator=generator)
    values = torch.randn(2, 10, 4, generator=generator)
    valid_lens = torch.tensor([2, 6])
    layer, hint = call_answer(BilinearAttention, 2, 20)  # key, query size
    if hint:
        return hint
    if isinstance(layer, nn.Module):
        layer.eval()
    hint = _bilinear_hint(layer, queries, keys, values, valid_lens)
    if hint:
        return hint
    gaps = _score_gaps(layer, queries, keys, values, valid_lens)
    if all(torch.allclose(gap, torch.zeros_like(gap)) for gap in gaps):
        return not_yet(
            "the weights are uniform: the scores must depend on the query and "
            "the keys (a W initialised to zeros gives this too)"
        )
    # a score linear in the query and in the keys: scale either, and
    # every difference between two keys' scores scales the same way
    for factor, what, args in (
        (
            2,
            tr("double when the query doubles"),
            (2 * queries, keys),
        ),
        (
            2,
            tr("double when the keys double"),
            (queries, 2 * keys),
        ),
        (
            -1,
            tr("change sign when the query does"),
            (-queries, keys),
        ),
    ):
        scaled = _score_gaps(layer, *args, values, valid_lens)
        if not all(
            torch.allclose(new, factor * old, atol=1e-4)
            for new, old in zip(scaled, gaps)
        ):
            return not_yet(
                "the scores do not {what}: a score made of matrix products "
                "only is linear in the query and in the keys (no tanh, no "
                "ReLU, no bias, no sum of q and k)",
                what=what,
            )
    return right(
        "masked weights over the keys, and scores linear in the query and in "
        "the keys, for queries of length 20 and keys of length 2"
    )
