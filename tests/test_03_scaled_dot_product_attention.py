"""DotProductAttention: agreement with d2l 0.17.6 and PyTorch's SDPA."""

import pytest
import torch
from torch.nn import functional as F

from d2l_attention import DotProductAttention, valid_lens_to_mask

SHAPES = [  # batch, queries, pairs, d, value size
    (2, 1, 10, 2, 4),
    (3, 4, 6, 8, 5),
    (1, 7, 3, 16, 16),
]
DEVICES = ["cpu"] + (["cuda"] if torch.cuda.is_available() else [])


def lens_cases(batch, n, m, gen):
    return [
        None,
        torch.randint(1, m + 1, (batch,), generator=gen),
        torch.randint(1, m + 1, (batch, n), generator=gen),
    ]


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_matches_d2l(d2l, shape, dtype):
    gen = torch.Generator().manual_seed(0)
    batch, n, m, d, v = shape
    q = torch.randn(batch, n, d, generator=gen, dtype=dtype)
    k = torch.randn(batch, m, d, generator=gen, dtype=dtype)
    values = torch.randn(batch, m, v, generator=gen, dtype=dtype)
    ours = DotProductAttention(0.0).eval()
    ref = d2l.DotProductAttention(0.0).eval()
    for lens in lens_cases(batch, n, m, gen):
        torch.testing.assert_close(
            ours(q, k, values, lens), ref(q, k, values, lens)
        )


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
@pytest.mark.parametrize("device", DEVICES)
def test_matches_torch_sdpa(shape, dtype, device):
    gen = torch.Generator().manual_seed(1)
    batch, n, m, d, v = shape
    q, k = (
        torch.randn(batch, n, d, generator=gen, dtype=dtype),
        torch.randn(batch, m, d, generator=gen, dtype=dtype),
    )
    values = torch.randn(batch, m, v, generator=gen, dtype=dtype)
    q, k, values = q.to(device), k.to(device), values.to(device)
    attention = DotProductAttention(0.0).eval()
    for lens in lens_cases(batch, n, m, gen):
        lens = None if lens is None else lens.to(device)
        mask = None if lens is None else valid_lens_to_mask(lens, m)
        expected = F.scaled_dot_product_attention(q, k, values, attn_mask=mask)
        torch.testing.assert_close(
            attention(q, k, values, lens), expected, atol=1e-5, rtol=1e-4
        )


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16])
def test_half_precision_weights_are_finite(dtype):
    q, k = torch.randn(2, 3, 8).to(dtype), torch.randn(2, 5, 8).to(dtype)
    attention = DotProductAttention(0.0)
    out = attention(q, k, k, torch.tensor([0, 4]))
    assert torch.isfinite(out).all()
    w = attention.attention_weights.float()
    torch.testing.assert_close(w[1].sum(-1), torch.ones(3), atol=1e-2, rtol=0)
    assert torch.equal(w[0], torch.zeros(3, 5))


def test_inputs_are_not_modified():
    q, k, v = torch.randn(2, 3, 4), torch.randn(2, 5, 4), torch.randn(2, 5, 6)
    lens = torch.tensor([[1, 2, 3], [5, 0, 2]])
    copies = [t.clone() for t in (q, k, v, lens)]
    DotProductAttention(0.0)(q, k, v, lens)
    for original, copy in zip((q, k, v, lens), copies):
        assert torch.equal(original, copy)


@pytest.mark.parametrize(
    "q, k, v, message",
    [
        (
            (2, 3, 4),
            (2, 5, 3),
            (2, 5, 6),
            r"queries must have as many features as the keys \(3\), got 4",
        ),
        ((2, 3, 4), (1, 5, 4), (1, 5, 6), "batch sizes disagree"),
        ((2, 3, 4), (2, 5, 4), (2, 4, 6), "pair up"),
        ((3, 4), (2, 5, 4), (2, 5, 6), "queries must be 3-D"),
    ],
)
def test_mismatched_inputs_raise_clear_errors(q, k, v, message):
    with pytest.raises(ValueError, match=message):
        DotProductAttention(0.0)(
            torch.randn(q), torch.randn(k), torch.randn(v)
        )


def test_dropout_acts_in_training_mode_only_and_is_unbiased():
    gen = torch.Generator().manual_seed(0)
    q = torch.randn(1, 3, 4, generator=gen)
    k = torch.randn(1, 5, 4, generator=gen)
    values = torch.randn(1, 5, 6, generator=gen)
    lens = torch.tensor([4])
    attention = DotProductAttention(0.5).eval()
    expected = attention(q, k, values, lens)
    assert torch.equal(attention(q, k, values, lens), expected)  # no noise
    attention.train()
    torch.manual_seed(0)
    draws = 20_000  # one example repeated: one dropout draw per row
    out = attention(
        q.expand(draws, -1, -1),
        k.expand(draws, -1, -1),
        values.expand(draws, -1, -1),
        lens.expand(draws),
    )
    # training mode: dropout changes the output of almost every draw ...
    changed = (out - expected).abs().amax(dim=(1, 2)) > 1e-6
    assert changed.float().mean() > 0.9
    # ... and its mean over the draws is the eval output (5 standard errors)
    error = (out.mean(dim=0) - expected[0]).abs()
    assert (error < 5 * out.std(dim=0) / draws**0.5 + 1e-6).all()
