"""The checks of the exercises of notebook 06:
notebooks/06_bahdanau_attention.ipynb."""

import torch

from ..additive_attention import AdditiveAttention
from ..language import tr
from .kit import call_answer, not_yet, right, shape_hint

__all__ = [
    "check_lstm_query",
    "check_context_by_hand",
    "check_precomputed_keys",
]


def check_lstm_query(lstm_query):
    """Check exercise 06 1: the query from an LSTM's state (h, c)."""
    generator = torch.Generator().manual_seed(0)
    # 2 layers, a batch of 3, 5 hidden units
    h, c = torch.randn(2, 2, 3, 5, generator=generator)
    query, hint = call_answer(lstm_query, (h, c))
    if hint:
        return hint
    if (
        torch.is_tensor(query)
        and query.shape == (2, 1, 3, 5)
        and (torch.equal(query, c.unsqueeze(1)))
    ):
        return not_yet(
            "hidden_state[-1] is c, the memory cell of every layer: take h "
            "from the pair first"
        )
    hint = shape_hint(query, (3, 1, 5))
    if hint:
        return hint
    for wrong, what in (
        (
            c[-1],
            tr("the top layer's memory cell c"),
        ),
        (h[0], tr("the bottom layer's h")),
    ):
        if torch.equal(query, wrong.unsqueeze(1)):
            return not_yet(
                "this is {what}: the query is the top layer's hidden state, "
                "h[-1]",
                what=what,
            )
    if not torch.equal(query, h[-1].unsqueeze(1)):
        return not_yet(
            "the query must be the top layer's hidden state, h[-1], one row "
            "per example"
        )
    return right("the top layer's hidden state h, one query per example")


def check_context_by_hand(context_by_hand):
    """Check exercise 06 A: a context vector as a weighted sum."""
    generator = torch.Generator().manual_seed(0)
    weights = torch.rand(4, generator=generator).softmax(0)  # 4 tokens
    states = torch.randn(4, 6, generator=generator)  # 6 hidden units
    context, hint = call_answer(context_by_hand, weights, states)
    hint = hint or shape_hint(context, (6,))
    if hint:
        return hint
    context = context.float()
    if torch.allclose(context, states.sum(0)):
        return not_yet(
            "this is the plain sum of the states: weigh each by its weight"
        )
    if not torch.allclose(context, weights @ states, atol=1e-6):
        return not_yet(
            "the context must be the sum of alpha_t h_t over the source tokens"
        )
    return right(
        "the weighted sum of the states, for 4 tokens of 6 hidden units"
    )


def _projects_again(layer, queries, keys, values, valid_lens, expected):
    """Return whether layer, given the raw keys, gives expected: then it
    multiplies them by W_k itself."""
    try:
        out = layer(queries, keys, values, valid_lens)
    except Exception:
        return False
    return torch.is_tensor(out) and torch.allclose(out, expected, atol=1e-5)


def check_precomputed_keys(PrecomputedKeysAttention):
    """Check exercise 06 B: additive attention fed W_k k, computed once."""
    with torch.random.fork_rng():  # leaves the notebook's random state
        torch.manual_seed(0)
        additive = AdditiveAttention(4, 5, 6, dropout=0).eval()
        queries, keys = torch.randn(2, 3, 5), torch.randn(2, 7, 4)
        values = torch.randn(2, 7, 2)
    valid_lens = torch.tensor([2, 7])
    layer, hint = call_answer(PrecomputedKeysAttention, 4, 5, 6, 0)
    if hint:
        return hint
    try:
        layer.load_state_dict(additive.state_dict())
    except (RuntimeError, AttributeError):
        return not_yet(
            "keep AdditiveAttention's parameters (W_q, W_k, w_v): only "
            "forward changes"
        )
    layer.eval()
    with torch.no_grad():
        expected = additive(queries, keys, values, valid_lens)
        out, hint = call_answer(
            layer, queries, additive.W_k(keys), values, valid_lens
        )
        if hint and _projects_again(
            layer, queries, keys, values, valid_lens, expected
        ):
            return not_yet(
                "the keys come already multiplied by W_k: do not apply it "
                "again"
            )
    hint = hint or shape_hint(out, (2, 3, 2))
    if hint:
        return hint
    if not torch.allclose(out.float(), expected, atol=1e-5):
        return not_yet(
            "the output differs from AdditiveAttention's on the same keys: "
            "the projected keys take the place of W_k(keys), and nothing else "
            "changes"
        )
    weights = getattr(layer, "attention_weights", None)
    if not torch.is_tensor(weights) or not torch.allclose(
        weights.float(), additive.attention_weights
    ):
        return not_yet("keep the weights in self.attention_weights")
    return right(
        "the output and the weights of AdditiveAttention, without multiplying "
        "the keys by W_k"
    )
