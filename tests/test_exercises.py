"""The checks of the exercises (d2l_attention.exercises) answer back.

Each check passes on its worked solution: the full notebooks print its
verdict in a cell that nbval compares (tagged `nbval-check-output`). Here
each check meets the stub of its answer cell, as the student edition runs
it, and wrong answers written for the purpose: every one gets a hint that
names what is wrong, and no exception escapes.
"""

import math

import nbformat
import pytest
import torch
from torch import nn

from d2l_attention import (
    AdditiveAttention,
    MaskedSoftmaxCELoss,
    Seq2SeqDecoder,
    exercises,
    masked_softmax,
    use_language,
)
from d2l_attention.exercises.kit import Verdict
from tools import student
from tools.project import ROOT

ENGLISH = sorted((ROOT / "notebooks").glob("[0-9]*.ipynb"))


def answered_exercises():
    """Return (notebook, answer cell, check cell) for every code exercise."""
    found = []
    for path in ENGLISH:
        cells = nbformat.read(path, as_version=4).cells
        for index, cell in enumerate(cells):
            if "answer" in student.tags(cell):
                check = next(
                    c for c in cells[index + 1 :] if "check" in student.tags(c)
                )
                found.append((path.name, cell, check))
    return found


ANSWERED = answered_exercises()


def called_check(cell):
    """Return the name of the check a check cell calls, exercises.NAME(...)."""
    prefix, _, rest = cell.source.partition(".")
    assert prefix == "exercises", cell.source  # a one-line call
    return rest.split("(")[0]


def verdict_of(answer_source, check_source):
    """Run an answer cell, then its check cell; return the verdict."""
    namespace = {
        "torch": torch,
        "nn": nn,
        "math": math,
        "masked_softmax": masked_softmax,
        "AdditiveAttention": AdditiveAttention,
        "MaskedSoftmaxCELoss": MaskedSoftmaxCELoss,
        "Seq2SeqDecoder": Seq2SeqDecoder,
    }
    namespace["exercises"] = exercises
    exec(answer_source, namespace)
    return eval(check_source, namespace)


def test_every_check_has_an_exercise_and_wrong_answers():
    checks = {name for name in exercises.__all__ if name.startswith("check_")}
    called = {called_check(check) for _, _, check in ANSWERED}
    assert called == checks
    assert set(WRONG) == checks


@pytest.mark.parametrize(
    "path",
    ENGLISH + sorted((ROOT / "notebooks" / "pt_BR").glob("[0-9]*.ipynb")),
    ids=lambda p: str(p.relative_to(ROOT / "notebooks")),
)
def test_every_check_passes_on_its_worked_solution(path):
    # what the full notebook printed; nbval runs it again and compares
    right = "✔ Certo: " if path.parent.name == "pt_BR" else "✔ Right: "
    for cell in nbformat.read(path, as_version=4).cells:
        if "check" in student.tags(cell):
            assert "nbval-check-output" in student.tags(cell)
            [out] = cell.outputs
            assert out.data["text/plain"].startswith(right), cell.source


@pytest.mark.parametrize(
    "notebook, answer, check",
    ANSWERED,
    ids=[called_check(check) for _, _, check in ANSWERED],
)
def test_the_stub_gets_a_hint(notebook, answer, check):
    assert "..." in answer.source  # where the student's code goes
    verdict = verdict_of(answer.source, check.source)
    assert isinstance(verdict, Verdict)
    assert not verdict.passed
    assert repr(verdict).startswith("✘ Not yet: ")


# wrong answers, each with what its hint must say

# the fill-in of notebook 01: the mask of valid lengths 1, 2, 3 over 4 keys
POSITIONS, VALID_LEN = torch.arange(4), torch.tensor([1, 2, 3])


def pad_without_renormalising(scores, valid_len):
    weights = torch.softmax(scores, dim=0)
    return torch.cat(
        [weights[:valid_len], torch.zeros(len(scores) - valid_len)]
    )


def softmax_without_padding(scores, valid_len):
    return torch.softmax(scores, dim=0)


def softmax_of_the_wrong_part(scores, valid_len):
    weights = torch.zeros_like(scores)
    weights[:valid_len] = torch.softmax(scores[-valid_len:], dim=0)
    return weights


def gradient_of_the_sum(X, valid_lens):
    X = X.detach().requires_grad_()
    masked_softmax(X, valid_lens).sum().backward()
    return X.grad


def gradient_around_the_mask(X, valid_lens):
    X = X.detach().requires_grad_()
    (torch.softmax(X, -1) * torch.randn_like(X)).sum().backward()
    return X.grad


def first_row_only(X, valid_lens):
    return X[0]


class AdditiveScore(nn.Module):
    """Additive attention's score: not made of matrix products alone."""

    def __init__(self, key_size, query_size, num_hiddens=8):
        super().__init__()
        self.W_k = nn.Linear(key_size, num_hiddens, bias=False)
        self.W_q = nn.Linear(query_size, num_hiddens, bias=False)
        self.w_v = nn.Linear(num_hiddens, 1, bias=False)

    def forward(self, queries, keys, values, valid_lens=None):
        features = torch.tanh(
            self.W_q(queries).unsqueeze(2) + self.W_k(keys).unsqueeze(1)
        )
        scores = self.w_v(features).squeeze(-1)
        self.attention_weights = masked_softmax(scores, valid_lens)
        return torch.bmm(self.attention_weights, values)


class SummedScore(AdditiveScore):
    """The score sum(q) + sum(k): linear, but blind to the query."""

    def forward(self, queries, keys, values, valid_lens=None):
        scores = queries.sum(-1, keepdim=True) + keys.sum(-1)[:, None, :]
        self.attention_weights = masked_softmax(scores, valid_lens)
        return torch.bmm(self.attention_weights, values)


class Bilinear(AdditiveScore):
    """q^T W k, with a mistake to make: see the subclasses."""

    def __init__(self, key_size, query_size):
        super().__init__(key_size, query_size)
        self.W = nn.Parameter(torch.randn(query_size, key_size))

    def scores(self, queries, keys):
        return queries @ self.W @ keys.transpose(1, 2)


class Unmasked(Bilinear):
    def forward(self, queries, keys, values, valid_lens=None):
        self.attention_weights = torch.softmax(self.scores(queries, keys), -1)
        return torch.bmm(self.attention_weights, values)


class WeightsForgotten(Bilinear):
    def forward(self, queries, keys, values, valid_lens=None):
        weights = masked_softmax(self.scores(queries, keys), valid_lens)
        return torch.bmm(weights, values)


class Unnormalised(Bilinear):
    def forward(self, queries, keys, values, valid_lens=None):
        scores = self.scores(queries, keys)
        mask = torch.arange(scores.shape[-1]) < valid_lens[:, None, None]
        self.attention_weights = scores.exp() * mask
        return torch.bmm(self.attention_weights, values)


class ScoresReturned(Bilinear):
    def forward(self, queries, keys, values, valid_lens=None):
        self.attention_weights = masked_softmax(
            self.scores(queries, keys), valid_lens
        )
        return self.attention_weights


class ReluScore(Bilinear):
    def forward(self, queries, keys, values, valid_lens=None):
        scores = torch.relu(self.scores(queries, keys))
        self.attention_weights = masked_softmax(scores, valid_lens)
        return torch.bmm(self.attention_weights, values)


class Uniform(Bilinear):
    def forward(self, queries, keys, values, valid_lens=None):
        scores = 0 * self.scores(queries, keys)
        self.attention_weights = masked_softmax(scores, valid_lens)
        return torch.bmm(self.attention_weights, values)


class TwoArguments(nn.Module):
    def __init__(self, size):
        super().__init__()


def keys_only(attention, queries, keys, values, perm, valid_lens):
    return attention(queries, keys[:, perm], values, valid_lens)


def values_only(attention, queries, keys, values, perm, valid_lens):
    return attention(queries, keys, values[:, perm], valid_lens)


def not_reordered(attention, queries, keys, values, perm, valid_lens):
    return attention(queries, keys, values, valid_lens)


def inverse_order(attention, queries, keys, values, perm, valid_lens):
    back = perm.argsort()
    return attention(queries, keys[:, back], values[:, back], valid_lens)


def weights_instead(attention, queries, keys, values, perm, valid_lens):
    attention(queries, keys[:, perm], values[:, perm], valid_lens)
    return attention.attention_weights


def layer_weights_flat(attention, queries, keys, valid_lens):
    attention(queries, keys, keys, valid_lens)
    return attention.attention.attention_weights  # (batch * heads, ...)


def heads_unscaled(attention, queries, keys, valid_lens):
    p = attention.W_q.out_features // attention.num_heads
    Q = attention.W_q(queries).reshape(2, -1, attention.num_heads, p)
    K = attention.W_k(keys).reshape(2, -1, attention.num_heads, p)
    scores = torch.einsum("bqhp,bkhp->bhqk", Q, K)
    mask = torch.arange(keys.shape[1]) < valid_lens[:, None, None, None]
    return torch.softmax(scores.masked_fill(~mask, -torch.inf), -1)


def heads_unmasked(attention, queries, keys, valid_lens):
    attention(queries, keys, keys)
    return attention.attention_weights


def heads_as_scores(attention, queries, keys, valid_lens):
    return heads_unscaled(attention, queries, keys, valid_lens).log()


class StillMasked(MaskedSoftmaxCELoss):
    pass


class MeanOverValid(MaskedSoftmaxCELoss):
    def forward(self, pred, label, valid_len, num_steps=None):
        return (
            super().forward(pred, label, valid_len)
            * pred.shape[1]
            / (valid_len)
        )


class OneNumber(MaskedSoftmaxCELoss):
    def forward(self, pred, label, valid_len, num_steps=None):
        every = torch.full_like(valid_len, pred.shape[1])
        return super().forward(pred, label, every).mean()


class ZeroBridge(Seq2SeqDecoder):
    def __init__(
        self,
        vocab_size,
        embed_size,
        num_hiddens,
        num_layers,
        enc_hiddens,
        dropout=0,
    ):
        super().__init__(
            vocab_size, embed_size, num_hiddens, num_layers, dropout
        )
        self.shape = (num_layers, num_hiddens)

    def init_state(self, enc_outputs, *args):
        batch = enc_outputs[1].shape[1]
        hidden = torch.zeros(self.shape[0], batch, self.shape[1])
        return hidden, hidden[-1]


class EncoderStateAsIs(ZeroBridge):
    def init_state(self, enc_outputs, *args):
        return enc_outputs[1], enc_outputs[1][-1]  # 3 x 16, not 2 x 12


class HiddenOnly(ZeroBridge):
    def init_state(self, enc_outputs, *args):
        return enc_outputs[1][-2:, :, :12]


class TeacherForced(Seq2SeqDecoder):
    def forward(self, X, state):
        return super().forward(X, state)


class RereadsBos(Seq2SeqDecoder):
    def forward(self, X, state):
        outputs = []
        for _ in range(X.shape[1]):
            Y_hat, state = super().forward(X[:, :1], state)
            outputs.append(Y_hat)
        return torch.cat(outputs, dim=1), state


class LastStepOnly(Seq2SeqDecoder):
    def forward(self, X, state):
        outputs, state = super().forward(X, state)
        return outputs[:, -1], state


class ProjectsTwice(AdditiveAttention):
    def forward(self, queries, projected_keys, values, valid_lens=None):
        return super().forward(queries, projected_keys, values, valid_lens)


class NoWeightsKept(AdditiveAttention):
    def forward(self, queries, projected_keys, values, valid_lens=None):
        features = torch.tanh(
            self.W_q(queries).unsqueeze(2) + projected_keys.unsqueeze(1)
        )
        scores = self.w_v(features).squeeze(-1)
        return torch.bmm(masked_softmax(scores, valid_lens), values)


class Unmasked06(AdditiveAttention):
    def forward(self, queries, projected_keys, values, valid_lens=None):
        features = torch.tanh(
            self.W_q(queries).unsqueeze(2) + projected_keys.unsqueeze(1)
        )
        self.attention_weights = self.w_v(features).squeeze(-1).softmax(-1)
        return torch.bmm(self.attention_weights, values)


def without_penalty(row, exponents, penalty=True):
    return 100 * math.prod(
        (row[n] / row[4 + n]) ** w for n, w in enumerate(exponents)
    )


def always_penalty(row, exponents, penalty=True):
    brevity = math.exp(min(0, 1 - row[9] / row[8]))
    return brevity * without_penalty(row, exponents)


def fraction(row, exponents, penalty=True):
    return (
        always_penalty(row, exponents) / 100
        if penalty
        else (without_penalty(row, exponents) / 100)
    )


def swapped_lengths(row, exponents, penalty=True):
    brevity = math.exp(min(0, 1 - row[8] / row[9])) if penalty else 1
    return brevity * without_penalty(row, exponents)


def penalty_without_min(row, exponents, penalty=True):
    brevity = math.exp(1 - row[9] / row[8]) if penalty else 1
    return brevity * without_penalty(row, exponents)


def geometric_mean(row, exponents, penalty=True):
    brevity = math.exp(min(0, 1 - row[9] / row[8])) if penalty else 1
    precisions = [row[n] / row[4 + n] for n in range(len(exponents))]
    return 100 * brevity * math.prod(precisions) ** (1 / len(exponents))


def zero_sum_rows_with_a_valid_zero(X, valid_lens):
    grad = torch.zeros_like(X)
    grad[..., 0], grad[..., 1] = 1.0, -1.0  # rows sum to 0; keys 2, 3 get 0
    return grad


class ReshapedBridge(ZeroBridge):
    """The bridge without the permute: examples' states get mixed."""

    def __init__(
        self,
        vocab_size,
        embed_size,
        num_hiddens,
        num_layers,
        enc_hiddens,
        dropout=0,
    ):
        super().__init__(
            vocab_size,
            embed_size,
            num_hiddens,
            num_layers,
            enc_hiddens,
            dropout,
        )
        self.bridge = nn.Linear(enc_hiddens, num_layers * num_hiddens)

    def init_state(self, enc_outputs, *args):
        top = enc_outputs[1][-1]
        hidden = torch.tanh(self.bridge(top)).reshape(
            self.shape[0], len(top), -1
        )
        return hidden, hidden[-1]


class ZeroContext(ReshapedBridge):
    def init_state(self, enc_outputs, *args):
        top = enc_outputs[1][-1]
        hidden = (
            torch.tanh(self.bridge(top))
            .reshape(len(top), self.shape[0], -1)
            .permute(1, 0, 2)
        )
        return hidden, torch.zeros_like(hidden[-1])


class KeepsFirstState(Seq2SeqDecoder):
    def forward(self, X, state):
        dec_X, outputs, first = X[:, :1], [], state
        for _ in range(X.shape[1]):
            Y_hat, state = super().forward(dec_X, state)
            outputs.append(Y_hat)
            dec_X = Y_hat.argmax(dim=2)
        return torch.cat(outputs, dim=1), first


class OutputsOnly(Seq2SeqDecoder):
    def forward(self, X, state):
        return super().forward(X, state)[0]


class WithoutWk(AdditiveAttention):
    def __init__(self, *args):
        super().__init__(*args)
        del self.W_k  # "the keys come projected": but the check loads W_k


class BiasedProjection(nn.Module):
    def __init__(self, key_size, query_size):
        super().__init__()
        self.project = nn.Linear(query_size, key_size)  # with a bias

    def forward(self, queries, keys, values, valid_lens=None):
        scores = self.project(queries) @ keys.transpose(1, 2)
        self.attention_weights = masked_softmax(scores, valid_lens)
        return torch.bmm(self.attention_weights, values)


WRONG = {
    "check_mask": [
        (POSITIONS[:, None] < VALID_LEN[None, :], "the shape is (4, 3)"),
        (POSITIONS < 3, "must have shape (3, 4), one row per valid length"),
        (POSITIONS[None, :] <= VALID_LEN[:, None], "first valid_len[i]"),
        ((POSITIONS[None, :] < VALID_LEN[:, None]).int(), "must be boolean"),
        ([[True, False, False, False]] * 3, "must be a tensor, got list"),
    ],
    "check_softmax_then_pad": [
        (pad_without_renormalising, "not 1: normalise over the first"),
        (softmax_without_padding, "from position 1 on must be 0"),
        (softmax_of_the_wrong_part, "values are not the softmax of the"),
        (lambda scores, valid_len: scores.tolist(), "must return a tensor"),
        (lambda scores: scores, "raised TypeError"),
    ],
    "check_score_gradient": [
        (gradient_of_the_sum, "every gradient is 0"),
        (gradient_around_the_mask, "a masked score got a gradient"),
        (first_row_only, "must have shape (2, 2, 5), got (2, 5)"),
        ("not a function", "must be a function, got str"),
        (
            lambda X, valid_lens: masked_softmax(X, valid_lens),
            "this is not the gradient of a loss",
        ),
        (
            lambda X, valid_lens: (
                (torch.arange(5) < valid_lens[:, None, None])
                .float()
                .expand(2, 2, 5)
            ),
            "this is not the gradient of a loss",
        ),
        (zero_sum_rows_with_a_valid_zero, "a valid score got no gradient"),
    ],
    "check_pair_sums": [
        (lambda q, k: q.unsqueeze(1) + k.unsqueeze(2), "(2, 3, 4, 6)"),
        (lambda q, k: q.unsqueeze(2) * k.unsqueeze(1), "query i plus key j"),
        (lambda q, k: q + k, "raised RuntimeError"),
        (lambda q, k: q.sum(-1), "must have shape (2, 4, 3, 6)"),
        (lambda q, k: None, "returned None"),
    ],
    "check_random_keys": [
        (torch.ones(2, 10, 2) * 3, "all the same vector"),
        (torch.randn(2, 10, 2) * 1e-4, "stay almost uniform"),
        (torch.randn(10, 2), "must have shape (2, 10, 2), got (10, 2)"),
        ("keys", "must return a tensor, got str"),
    ],
    "check_permuted_output": [
        (keys_only, "the keys were reordered, but not the values"),
        (values_only, "the values were reordered, but not the keys"),
        (not_reordered, "this is the output in the original order"),
        (inverse_order, "is not that of `attention` for `keys[:, perm]`"),
        (
            lambda attention, queries, keys, values, perm, valid_lens: (
                attention(queries, keys[:, perm], values[:, perm])
            ),
            "the valid lengths were left out",
        ),
        (weights_instead, "must have shape (2, 1, 4), got (2, 1, 10)"),
    ],
    "check_head_weights": [
        (layer_weights_flat, "split the batch and the heads"),
        (heads_unscaled, "divides the scores by sqrt(p)"),
        (heads_unmasked, "a key past the valid length got a weight"),
        (heads_as_scores, "each row must sum to one"),
    ],
    "check_unmasked_loss": [
        (StillMasked, "this is the masked loss"),
        (MeanOverValid, "divided by their number"),
        (OneNumber, "must have shape (3,), got ()"),
    ],
    "check_bridged_decoder": [
        (ZeroBridge, "the state does not change with the source"),
        (ReshapedBridge, "needs a permute, not a reshape alone"),
        (ZeroContext, "the context does not change with the source"),
        (EncoderStateAsIs, "must have shape (2, 4, 12), got (3, 4, 16)"),
        (HiddenOnly, "must return (hidden, context)"),
        (Seq2SeqDecoder, "raised ValueError: dropout should be"),
    ],
    "check_free_running_decoder": [
        (TeacherForced, "read the reference tokens (teacher forcing)"),
        (RereadsBos, "then at each step its own most likely token"),
        (LastStepOnly, "must have shape (4, 7, 11), got (4, 11)"),
        (OutputsOnly, "forward must return (outputs, state)"),
        (KeepsFirstState, "return the decoder's state after the last step"),
    ],
    "check_lstm_query": [
        (lambda state: state[-1].unsqueeze(1), "hidden_state[-1] is c"),
        (
            lambda state: state[0].unsqueeze(1),
            "must have shape (3, 1, 5), got (2, 1, 3, 5)",
        ),
        (lambda state: state[1][-1].unsqueeze(1), "top layer's memory cell"),
        (lambda state: state[0][0].unsqueeze(1), "the bottom layer's h"),
        (lambda state: state[0][-1], "must have shape (3, 1, 5), got (3, 5)"),
        (lambda state: -state[0][-1].unsqueeze(1), "must be the top layer"),
    ],
    "check_context_by_hand": [
        (lambda weights, states: states.sum(0), "plain sum of the states"),
        (lambda weights, states: weights @ states.T, "raised RuntimeError"),
        (
            lambda weights, states: states.T @ weights.flip(0),
            "the sum of alpha_t h_t",
        ),
        (lambda weights, states: weights[:, None] * states, "got (4, 6)"),
    ],
    "check_precomputed_keys": [
        (ProjectsTwice, "already multiplied by W_k: do not apply it again"),
        (WithoutWk, "keep AdditiveAttention's parameters"),
        (NoWeightsKept, "keep the weights in self.attention_weights"),
        (Unmasked06, "differs from AdditiveAttention's"),
    ],
    "check_score_of_counts": [
        (without_penalty, "with penalty=True, the brevity penalty"),
        (always_penalty, "with penalty=False, the brevity penalty"),
        (fraction, "multiply by 100"),
        (geometric_mean, "is not 100 x the product of the p_n ** w_n"),
        (swapped_lengths, "r and c are swapped"),
        (penalty_without_min, "the brevity penalty never exceeds 1"),
        (
            lambda row, exponents, penalty: str(
                without_penalty(row, exponents)
            ),
            "must be a number (a tensor's .item()), got str",
        ),
    ],
    "check_bilinear_attention": [
        (AdditiveScore, "do not double when the query doubles"),
        (SummedScore, "do not double when the query doubles"),
        (Unmasked, "a key past the valid length got a weight"),
        (WeightsForgotten, "keep the weights in self.attention_weights"),
        (Unnormalised, "must sum to one over the keys"),
        (ScoresReturned, "must have shape (2, 1, 4), got (2, 1, 10)"),
        (Uniform, "the weights are uniform"),
        (BiasedProjection, "no bias"),
        (ReluScore, "do not change sign when the query does"),
        (TwoArguments, "raised TypeError"),
    ],
}


@pytest.mark.parametrize(
    "name, wrong, hint",
    [
        (name, wrong, hint)
        for name, cases in WRONG.items()
        for wrong, hint in cases
    ],
)
def test_a_wrong_answer_gets_its_hint(name, wrong, hint):
    verdict = getattr(exercises, name)(wrong)
    assert not verdict.passed
    assert hint in verdict.message


def float64(answer):
    """The answer, its tensors returned as float64."""

    def wrapped(*args):
        result = answer(*args)
        return result.double() if torch.is_tensor(result) else result

    return wrapped


def test_a_float64_answer_is_as_good_as_a_float32_one():
    def gradient(X, valid_lens):
        X = X.detach().double().requires_grad_()
        out = masked_softmax(X, valid_lens)
        (out * torch.randn_like(out)).sum().backward()
        return X.grad

    assert exercises.check_score_gradient(gradient).passed
    assert exercises.check_context_by_hand(
        float64(lambda weights, states: weights @ states)
    ).passed
    assert exercises.check_permuted_output(
        float64(
            lambda attention, queries, keys, values, perm, valid_lens: (
                attention(queries, keys[:, perm], values[:, perm], valid_lens)
            )
        )
    ).passed


def test_the_verdict_follows_the_language(portuguese):
    verdict = exercises.check_softmax_then_pad(softmax_without_padding)
    assert repr(verdict).startswith("✘ Ainda não: com valid_len = 1")
    use_language("en")
    assert repr(verdict) != repr(
        exercises.check_softmax_then_pad(softmax_without_padding)
    )
