"""The checks of the exercises and the fill-in of notebook 01:
notebooks/01_masked_softmax.ipynb."""

import torch

from ..masking import masked_softmax
from .kit import call_answer, not_yet, right, shape_hint

__all__ = [
    "check_mask",
    "check_softmax_then_pad",
    "check_score_gradient",
]


def check_mask(mask):
    """Check the fill-in of 01: the mask of valid lengths 1, 2, 3 over 4
    positions, positions[None, :] < valid_len[:, None]."""
    valid_len = torch.tensor([1, 2, 3])
    expected = torch.arange(4)[None, :] < valid_len[:, None]
    if mask is Ellipsis:
        return not_yet(
            "`mask` is still `...`: write the comparison in its place"
        )
    if not torch.is_tensor(mask):
        kind = type(mask).__name__
        return not_yet("`mask` must be a tensor, got {kind}", kind=kind)
    if tuple(mask.shape) == (4, 3):
        return not_yet(
            "the shape is (4, 3), one row per position; the mask needs one "
            "row per valid length: valid_len down the column, the positions "
            "along the row"
        )
    if tuple(mask.shape) != (3, 4):
        got = tuple(mask.shape)
        return not_yet(
            "the mask must have shape (3, 4), one row per valid length, got "
            "{got}: compare a row (1, 4) with a column (3, 1)",
            got=got,
        )
    if mask.dtype != torch.bool:
        return not_yet(
            "the mask must be boolean: a comparison, True where a position "
            "is kept"
        )
    if not torch.equal(mask, expected):
        return not_yet(
            "row i must be True for its first valid_len[i] positions only: "
            "keep a position when it is below the valid length (<)"
        )
    return right("True for the first 1, 2 and 3 positions of the three rows")


def check_softmax_then_pad(softmax_then_pad):
    """Check exercise 01 B: softmax of the first valid_len scores, zeros."""
    scores = torch.randn(6, generator=torch.Generator().manual_seed(0))
    for n in range(1, 7):
        result, hint = call_answer(softmax_then_pad, scores.clone(), n)
        hint = hint or shape_hint(result, (6,))
        if hint:
            return hint
        result = result.detach().double()
        if (result[n:] != 0).any():
            return not_yet(
                "with valid_len = {n}, the entries from position {n} on must "
                "be 0",
                n=n,
            )
        if not torch.isclose(result.sum(), torch.tensor(1.0).double()):
            return not_yet(
                "with valid_len = {n}, the entries sum to {total:.3f}, not 1: "
                "normalise over the first valid_len scores only",
                n=n,
                total=result.sum().item(),
            )
        expected = masked_softmax(scores.reshape(1, 1, 6), torch.tensor([n]))
        if not torch.allclose(result, expected.flatten().double()):
            return not_yet(
                "with valid_len = {n}, the entries sum to 1 and the padding "
                "is 0, but the values are not the softmax of the first {n} "
                "scores",
                n=n,
            )
    return right("equal to masked_softmax for every valid length from 1 to 6")


def check_score_gradient(score_gradient):
    """Check exercise 01 C: the gradient of the masked scores is zero."""
    X = torch.randn(2, 2, 5, generator=torch.Generator().manual_seed(0))
    valid_lens = torch.tensor([2, 4])
    grad, hint = call_answer(score_gradient, X.clone(), valid_lens)
    hint = hint or shape_hint(grad, X.shape)
    if hint:
        return hint
    grad = grad.detach().float()
    # (2, 1, 5): True where a key lies past its example's valid length
    masked = torch.arange(5) >= valid_lens[:, None, None]
    if (grad.abs() < 1e-6).all():
        return not_yet(
            "every gradient is 0. A loss like out.sum() is the same for any "
            "scores, as every row sums to one: weight the outputs at random, "
            "(out * torch.randn_like(out)).sum()"
        )
    if (grad.masked_select(masked) != 0).any():
        return not_yet(
            "a masked score got a gradient: take the gradient of a loss "
            "computed from masked_softmax(X, valid_lens)"
        )
    # adding a number to a row of scores changes no weight: whatever the
    # loss, each row of its gradient sums to 0
    if not torch.allclose(grad.sum(-1), torch.zeros(2, 2), atol=1e-5):
        return not_yet(
            "this is not the gradient of a loss with respect to the scores: "
            "adding the same number to a row of scores changes no weight, so "
            "each row of the gradient sums to 0"
        )
    if (grad.masked_select(~masked) == 0).any():
        return not_yet(
            "a valid score got no gradient: weight the outputs at random"
        )
    return right(
        "every masked score's gradient is exactly 0, and every valid score "
        "gets a gradient that is not"
    )
