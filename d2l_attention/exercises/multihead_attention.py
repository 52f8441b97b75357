"""The checks of the exercises of notebook 04:
notebooks/04_multihead_attention.ipynb."""

import torch

from ..multihead_attention import MultiHeadAttention
from .kit import call_answer, not_yet, right, shape_hint

__all__ = [
    "check_head_weights",
]


def _head_weights_hint(weights, layer, queries, keys, valid_lens):
    """Return what a wrong answer to exercise 04 1 got wrong, if anything."""
    with torch.no_grad():
        layer(queries, keys, keys, valid_lens)
    expected = layer.attention_weights
    if tuple(weights.shape) == (6, 4, 7):
        return not_yet(
            "the shape must be (2, 3, 4, 7), got (6, 4, 7): split the batch "
            "and the heads, (batch_size * num_heads, ...) -> (batch_size, "
            "num_heads, ...)"
        )
    hint = shape_hint(weights, expected.shape)
    if hint:
        return hint
    weights = weights.detach().float()
    if not torch.allclose(weights.sum(-1), torch.ones(2, 3, 4)):
        return not_yet("each row must sum to one over the keys")
    if (weights[0, :, :, 3:] != 0).any():
        return not_yet("a key past the valid length got a weight")
    if not torch.allclose(weights, expected, atol=1e-5):
        return not_yet(
            "these are not the weights of the heads: head h takes the dot "
            "products of features h * p to (h + 1) * p of the projected "
            "queries and keys, and divides the scores by sqrt(p)"
        )
    return None


def check_head_weights(head_weights):
    """Check exercise 04 1: every head's attention weights."""
    with torch.random.fork_rng():  # leaves the notebook's random state
        torch.manual_seed(0)
        layer = MultiHeadAttention(
            6, 5, 6, num_hiddens=12, num_heads=3, dropout=0
        ).eval()
        queries, keys = torch.randn(2, 4, 5), torch.randn(2, 7, 6)
    valid_lens = torch.tensor([3, 7])
    with torch.no_grad():
        weights, hint = call_answer(
            head_weights, layer, queries, keys, valid_lens
        )
    hint = hint or (
        shape_hint(weights, (2, 3, 4, 7))
        if not torch.is_tensor(weights)
        else _head_weights_hint(weights, layer, queries, keys, valid_lens)
    )
    if hint:
        return hint
    return right(
        "the weights of 3 heads, each row summing to one over the valid keys"
    )
