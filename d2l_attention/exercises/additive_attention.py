"""The checks of the exercises of notebook 02, and its quiz:
notebooks/02_additive_attention.ipynb."""

import torch

from ..additive_attention import AdditiveAttention
from ..language import tr
from ..masking import masked_softmax
from .kit import call_answer, not_yet, right, shape_hint
from .quiz import quiz

__all__ = [
    "check_pair_sums",
    "quiz_identical_keys",
    "check_random_keys",
    "check_permuted_output",
]


def check_pair_sums(pair_sums):
    """Check the fill-in of 02: every (query, key) sum, by broadcasting."""
    generator = torch.Generator().manual_seed(0)
    proj_q = torch.randn(2, 4, 6, generator=generator)
    proj_k = torch.randn(2, 3, 6, generator=generator)
    features, hint = call_answer(pair_sums, proj_q, proj_k)
    if hint:
        return hint
    if torch.is_tensor(features) and tuple(features.shape) == (2, 3, 4, 6):
        return not_yet(
            "the shape is (2, 3, 4, 6): the keys' axis comes before the "
            "queries'. The queries get the new axis at position 2, the keys "
            "at position 1"
        )
    hint = shape_hint(features, (2, 4, 3, 6))
    if hint:
        return hint
    expected = proj_q.unsqueeze(2) + proj_k.unsqueeze(1)
    if not torch.allclose(features.float(), expected, atol=1e-6):
        return not_yet(
            "the shape is right, but features[b, i, j] must be query i plus "
            "key j of example b: add the two, each with its new axis"
        )
    return right(
        "shape (2, 4, 3, 6): features[b, i, j] is query i plus key j of "
        "example b, every pair at once"
    )


def quiz_identical_keys():
    """Return the quiz of 02: the weights of identical keys."""
    return quiz(
        (
            tr("they depend on W_q, W_k and w_v"),
            False,
            tr(
                "the parameters change the score all the keys share, not "
                "the differences between them: every score stays equal"
            ),
        ),
        (
            tr("uniform over the valid keys"),
            True,
            tr(
                "a score depends on the query and its own key only; equal "
                "keys get equal scores, and the softmax of equal scores is "
                "uniform, whatever the parameters"
            ),
        ),
        (
            tr("all the weight on the first key"),
            False,
            tr(
                "nothing tells the first key from the others: they all get "
                "the same score, and the softmax of equal scores is uniform"
            ),
        ),
    )


def check_random_keys(random_keys):
    """Check exercise 02 1: keys of the toy example's shape that differ,
    and what they do to its weights."""
    if random_keys is Ellipsis:
        return not_yet(
            "`random_keys` is still `...`: write the keys in its place"
        )
    hint = shape_hint(random_keys, (2, 10, 2))
    if hint:
        return hint
    keys = random_keys.detach().float().cpu()
    if (keys == keys[:, :1]).all(dim=-1).all(dim=-1).any():
        return not_yet(
            "the ten keys of an example are all the same vector, as in the "
            "book's example: draw keys that differ, with torch.randn"
        )
    # the book's toy example, with a layer of its own
    generator = torch.Generator().manual_seed(0)
    queries = torch.randn(2, 1, 20, generator=generator)
    values = torch.arange(40.0).reshape(1, 10, 4).repeat(2, 1, 1)
    valid_lens = torch.tensor([2, 6])
    with torch.random.fork_rng():
        torch.manual_seed(0)
        attention = AdditiveAttention(2, 20, 8, dropout=0.1).eval()
    with torch.no_grad():
        output = attention(queries, keys, values, valid_lens)
    weights = attention.attention_weights
    uniform = masked_softmax(torch.zeros(2, 1, 10), valid_lens)
    plain_means = torch.bmm(uniform, values)
    if (weights - uniform).abs().max() < 0.01 or torch.allclose(
        output, plain_means, atol=0.01
    ):
        return not_yet(
            "the keys differ so little that the weights stay almost uniform: "
            "draw keys that differ more, with torch.randn"
        )
    return right(
        "ten keys per example that differ. Now run the toy example with "
        "them, `attention(queries, random_keys, values, valid_lens)`, and "
        "look at `attention.attention_weights` before you read the answer"
    )


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
