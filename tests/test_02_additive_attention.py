"""AdditiveAttention: agreement with d2l 0.17.6, the toy example, errors."""

import pytest
import torch

from d2l_attention import AdditiveAttention, _check_attention_inputs

CASES = [  # batch, queries, pairs, query_size, key_size, value_size, hiddens
    (2, 1, 10, 20, 2, 4, 8),
    (3, 4, 6, 5, 7, 3, 16),
    (1, 5, 1, 3, 3, 2, 4),
]


def make_inputs(case, dtype, gen):
    batch, n, m, q_size, k_size, v_size, _ = case
    return (
        torch.randn(batch, n, q_size, generator=gen, dtype=dtype),
        torch.randn(batch, m, k_size, generator=gen, dtype=dtype),
        torch.randn(batch, m, v_size, generator=gen, dtype=dtype),
    )


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_matches_d2l_with_same_weights(d2l, case, dtype):
    gen = torch.Generator().manual_seed(0)
    batch, n, m, q_size, k_size, _, hiddens = case
    ours = AdditiveAttention(k_size, q_size, hiddens, dropout=0.0)
    ref = d2l.AdditiveAttention(k_size, q_size, hiddens, dropout=0.0)
    ref.load_state_dict(ours.state_dict())
    ours, ref = ours.to(dtype).eval(), ref.to(dtype).eval()
    queries, keys, values = make_inputs(case, dtype, gen)
    for lens in [
        None,
        torch.randint(1, m + 1, (batch,), generator=gen),
        torch.randint(1, m + 1, (batch, n), generator=gen),
    ]:
        torch.testing.assert_close(
            ours(queries, keys, values, lens), ref(queries, keys, values, lens)
        )
        torch.testing.assert_close(
            ours.attention_weights, ref.attention_weights
        )


def test_toy_example_gives_the_mean_of_the_valid_values():
    torch.manual_seed(0)
    attention = AdditiveAttention(2, 20, 8, dropout=0.1).eval()
    values = torch.arange(40.0).reshape(1, 10, 4).repeat(2, 1, 1)
    out = attention(
        torch.randn(2, 1, 20),
        torch.ones(2, 10, 2),
        values,
        torch.tensor([2, 6]),
    )
    torch.testing.assert_close(
        out, torch.tensor([[[2.0, 3, 4, 5]], [[10.0, 11, 12, 13]]])
    )


def test_inputs_are_not_modified():
    attention = AdditiveAttention(3, 4, 5, dropout=0.0)
    q, k, v = torch.randn(2, 3, 4), torch.randn(2, 6, 3), torch.randn(2, 6, 2)
    lens = torch.tensor([2, 6])
    copies = [t.clone() for t in (q, k, v, lens)]
    attention(q, k, v, lens)
    for original, copy in zip((q, k, v, lens), copies):
        assert torch.equal(original, copy)


@pytest.mark.parametrize(
    "q, k, v, message",
    [
        ((3, 1, 4), (2, 6, 3), (2, 6, 2), "batch sizes disagree"),
        ((2, 1, 5), (2, 6, 3), (2, 6, 2), "queries must have 4 features"),
        ((2, 1, 4), (2, 6, 2), (2, 6, 2), "keys must have 3 features"),
        ((2, 1, 4), (2, 6, 3), (2, 5, 2), "pair up"),
        ((1, 4), (2, 6, 3), (2, 6, 2), "queries must be 3-D"),
    ],
)
def test_mismatched_inputs_raise_clear_errors(q, k, v, message):
    attention = AdditiveAttention(3, 4, 5, dropout=0.0)
    with pytest.raises(ValueError, match=message):
        attention(torch.randn(q), torch.randn(k), torch.randn(v))


def test_bad_valid_lens_are_reported():
    attention = AdditiveAttention(3, 4, 5, dropout=0.0)
    q, k, v = torch.randn(2, 1, 4), torch.randn(2, 6, 3), torch.randn(2, 6, 2)
    with pytest.raises(ValueError, match="valid_lens must have shape"):
        attention(q, k, v, torch.tensor([1, 2, 3]))


def test_non_tensor_input_raises_type_error():
    with pytest.raises(TypeError, match="keys must be a tensor"):
        _check_attention_inputs(
            torch.ones(1, 1, 1), [[1.0]], torch.ones(1, 1, 1)
        )


def dropout_case(p, copies):
    """A scorer with dropout p and one input repeated `copies` times."""
    gen = torch.Generator().manual_seed(3)
    attention = AdditiveAttention(3, 4, 6, dropout=p)
    q, k = (
        torch.randn(1, 2, 4, generator=gen),
        torch.randn(1, 5, 3, generator=gen),
    )
    v = torch.rand(1, 5, 2, generator=gen)
    lens = torch.tensor([4])
    # (1, ...) -> (copies, ...): one independent dropout draw per copy
    inputs = (
        q.repeat(copies, 1, 1),
        k.repeat(copies, 1, 1),
        v.repeat(copies, 1, 1),
        lens.repeat(copies),
    )
    return attention, inputs


def test_dropout_acts_in_training_mode_only():
    attention, inputs = dropout_case(p=0.5, copies=200)
    attention.eval()
    with torch.no_grad():
        evaluated = attention(*inputs)
        no_dropout = attention(*inputs)
    torch.testing.assert_close(evaluated, no_dropout)
    # every copy is the same input: without dropout, the same output
    torch.testing.assert_close(evaluated, evaluated[:1].expand_as(evaluated))
    attention.train()
    with torch.no_grad():
        trained = attention(*inputs)
    differs = (trained - evaluated).abs().amax(dim=(1, 2)) > 1e-6
    assert differs.float().mean() > 0.5  # most draws drop something


def test_dropout_is_unbiased():
    copies = 20_000
    attention, inputs = dropout_case(p=0.5, copies=copies)
    attention.eval()
    with torch.no_grad():
        expected = attention(*inputs)[0]
        attention.train()
        draws = attention(*inputs)
    # values in [0, 1): one draw's output has a standard deviation below
    # sqrt(p / (1 - p)) = 1, so the mean of 20000 below 0.01
    torch.testing.assert_close(draws.mean(0), expected, atol=0.05, rtol=0)
