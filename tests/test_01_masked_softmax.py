"""masked_softmax, valid_lens_to_mask, sequence_mask: reference agreement,
mask conventions, edge cases, errors."""

import ast
import inspect

import matplotlib
import pytest
import torch
from torch.nn import functional as F

from d2l_attention import (
    _check_attention_inputs,
    _check_dot_product_inputs,
    _check_num_heads,
    checks,
    masked_softmax,
    sequence_mask,
    show_heatmaps,
    try_gpu,
    use_language,
    valid_lens_to_mask,
)
from d2l_attention import language as package_language

matplotlib.use("Agg")

SHAPES = [(1, 1, 1), (2, 2, 4), (3, 5, 7), (4, 1, 10)]
DTYPES = [torch.float32, torch.float64]


def valid_lens_cases(batch, queries, keys, gen):
    """None, 1-D and 2-D valid lengths, all at least 1."""
    return [
        None,
        torch.randint(1, keys + 1, (batch,), generator=gen),
        torch.randint(1, keys + 1, (batch, queries), generator=gen),
    ]


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("dtype", DTYPES)
def test_matches_d2l_reference(d2l, shape, dtype):
    gen = torch.Generator().manual_seed(0)
    X = torch.randn(shape, generator=gen, dtype=dtype)
    for lens in valid_lens_cases(*shape, gen):
        expected = d2l.masked_softmax(X.clone(), lens)
        torch.testing.assert_close(masked_softmax(X, lens), expected)


@pytest.mark.parametrize("shape", SHAPES)
def test_matches_builtin_softmax_with_mask(shape):
    gen = torch.Generator().manual_seed(1)
    X = torch.randn(shape, generator=gen)
    lens = torch.randint(1, shape[2] + 1, shape[:2], generator=gen)
    mask = torch.arange(shape[2]) < lens[..., None]
    expected = F.softmax(X.masked_fill(~mask, float("-inf")), dim=-1)
    torch.testing.assert_close(masked_softmax(X, lens), expected)


def test_valid_lens_to_mask_is_true_where_kept():
    mask = valid_lens_to_mask(torch.tensor([0, 2, 5]), 4)
    assert mask.dtype == torch.bool and mask.shape == (3, 1, 4)
    assert mask[:, 0].tolist() == [
        [False] * 4,
        [True, True, False, False],
        [True] * 4,
    ]
    mask_2d = valid_lens_to_mask(torch.tensor([[1, 3], [2, 0]]), 3)
    assert mask_2d.shape == (2, 2, 3)
    assert mask_2d.sum(-1).tolist() == [[1, 3], [2, 0]]


def test_mask_is_the_attn_mask_of_scaled_dot_product_attention():
    gen = torch.Generator().manual_seed(2)
    q, k, v = (
        torch.randn(2, 3, 4, generator=gen),
        torch.randn(2, 6, 4, generator=gen),
        torch.randn(2, 6, 5, generator=gen),
    )
    lens = torch.tensor([[1, 4, 6], [2, 2, 5]])
    ours = masked_softmax(q @ k.transpose(1, 2) / 2, lens) @ v
    sdpa = F.scaled_dot_product_attention(
        q, k, v, attn_mask=valid_lens_to_mask(lens, 6)
    )
    torch.testing.assert_close(ours, sdpa)


def test_sequence_mask_matches_d2l_and_is_out_of_place(d2l):
    X = torch.arange(12.0).reshape(3, 4)
    lens = torch.tensor([1, 0, 4])
    before = X.clone()
    ours = sequence_mask(X, lens, value=-1)
    assert torch.equal(X, before)
    assert torch.equal(ours, d2l.sequence_mask(X.clone(), lens, value=-1))


def test_sequence_mask_broadcasts_over_feature_axes():
    X = torch.ones(2, 3, 5)
    out = sequence_mask(X, torch.tensor([1, 2]))
    assert out[0, 1:].abs().sum() == 0 and out[1, 2:].abs().sum() == 0
    assert out[0, 0].sum() == 5 and out[1, :2].sum() == 10


@pytest.mark.parametrize(
    "lens",
    [
        torch.tensor([2]),  # one for 3 rows
        torch.tensor([[1, 2], [2, 3], [3, 4]]),
    ],
)
def test_sequence_mask_wants_one_length_per_row(lens):
    # neither broadcast over the rows nor cut to a first column
    with pytest.raises(ValueError, match="valid_lens must have shape"):
        sequence_mask(torch.ones(3, 4), lens)


def test_zero_valid_length_gives_zero_row_without_nan():
    X = torch.randn(2, 3, 4, requires_grad=True)
    out = masked_softmax(X, torch.tensor([0, 2]))
    assert torch.equal(out[0], torch.zeros(3, 4))
    torch.testing.assert_close(out[1].sum(-1), torch.ones(3))
    out.sum().backward()
    assert torch.isfinite(X.grad).all()


def test_valid_length_above_key_count_means_all_keys():
    X = torch.randn(2, 3, 4)
    torch.testing.assert_close(
        masked_softmax(X, torch.tensor([4, 50])), F.softmax(X, dim=-1)
    )


def test_inputs_are_not_modified():
    X = torch.randn(2, 3, 4)
    lens = torch.tensor([[1, 2, 3], [4, 0, 2]])
    X0, lens0 = X.clone(), lens.clone()
    masked_softmax(X, lens)
    assert torch.equal(X, X0) and torch.equal(lens, lens0)


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16])
def test_half_precision_is_finite_and_normalised(dtype):
    X = (torch.randn(3, 2, 6) * 10).to(dtype)
    lens = torch.tensor([0, 3, 6])
    out = masked_softmax(X, lens)
    assert out.dtype == dtype and torch.isfinite(out).all()
    sums = out.float().sum(-1)
    torch.testing.assert_close(sums[1:], torch.ones(2, 2), atol=1e-2, rtol=0)
    assert torch.equal(sums[0], torch.zeros(2))


def test_whole_number_float_lengths_are_accepted():
    X = torch.randn(2, 2, 4)
    torch.testing.assert_close(
        masked_softmax(X, torch.tensor([2.0, 3.0])),
        masked_softmax(X, torch.tensor([2, 3])),
    )


@pytest.mark.parametrize(
    "lens, message",
    [
        (torch.tensor([1, 2, 3]), "valid_lens must have shape"),
        (torch.tensor([[1, 2, 3]]), "valid_lens must have shape"),
        (torch.tensor([-1, 2]), ">= 0"),
        (torch.tensor([1.5, 2.0]), "whole numbers"),
        (torch.tensor([[1, 2], [0, -3]]), ">= 0"),
    ],
)
def test_bad_valid_lens_raise_value_error(lens, message):
    with pytest.raises(ValueError, match=message):
        masked_softmax(torch.randn(2, 2, 4), lens)


@pytest.mark.parametrize("lens", [[1, 2], torch.tensor([True, False])])
def test_valid_lens_of_wrong_type_raise_type_error(lens):
    with pytest.raises(TypeError, match="valid_lens"):
        masked_softmax(torch.randn(2, 2, 4), lens)


@pytest.mark.parametrize("X", [torch.randn(2, 4), torch.randn(1, 2, 2, 4)])
def test_x_must_be_3d(X):
    with pytest.raises(ValueError, match="3-D"):
        masked_softmax(X, None)


def test_integer_scores_raise_type_error():
    with pytest.raises(TypeError, match="floating-point"):
        masked_softmax(torch.ones(2, 2, 4, dtype=torch.long), None)


def test_show_heatmaps_draws_one_axis_per_matrix():
    fig = show_heatmaps(
        torch.rand(2, 3, 4, 5), "Keys", "Queries", titles=["a", "b", "c"]
    )
    assert len(fig.axes) == 2 * 3 + 1  # and a colour bar
    assert fig.axes[0].get_title() == "a"
    # a fixed colour scale, whatever the data's range
    assert all(ax.images[0].get_clim() == (0, 1) for ax in fig.axes[:6])
    with pytest.raises(ValueError, match="4-D"):
        show_heatmaps(torch.rand(4, 5), "Keys", "Queries")


def test_show_heatmaps_labels_every_index_of_a_one_row_heatmap():
    fig = show_heatmaps(torch.rand(1, 1, 1, 10), "Keys", "Query")
    ax = fig.axes[0]

    def visible(ticks, limits):
        low, high = sorted(limits)
        return [t for t in ticks if low <= t <= high]

    assert visible(ax.get_yticks(), ax.get_ylim()) == [0]
    assert visible(ax.get_xticks(), ax.get_xlim()) == list(range(10))


def test_try_gpu_returns_an_available_device():
    device = try_gpu()
    assert torch.zeros(1, device=device).device.type == device.type
    assert try_gpu(10_000).type == "cpu"


@pytest.mark.skipif(not torch.cuda.is_available(), reason="no CUDA device")
def test_cuda_matches_cpu():
    X = torch.randn(3, 4, 5)
    lens = torch.tensor([[1, 2, 3, 4], [5, 0, 1, 2], [3, 3, 3, 3]])
    on_gpu = masked_softmax(X.cuda(), lens.cuda()).cpu()
    torch.testing.assert_close(on_gpu, masked_softmax(X, lens))


def test_valid_lens_to_mask_reads_the_values_and_moves_to_device():
    with pytest.raises(ValueError, match=">= 0"):
        valid_lens_to_mask(torch.tensor([2, -1]), 4)
    with pytest.raises(ValueError, match="whole numbers"):
        valid_lens_to_mask(torch.tensor([0.5]), 4)
    mask = valid_lens_to_mask(torch.tensor([1, 3]), 4, torch.device("meta"))
    assert mask.device.type == "meta" and mask.shape == (2, 1, 4)


# ---- the input checks' messages in the Portuguese edition -------------


def _scores():
    return torch.rand(2, 2, 3)


def _qkv(queries=(2, 1, 4), keys=(2, 3, 4), values=(2, 3, 5)):
    return [torch.ones(shape) for shape in (queries, keys, values)]


# one bad call per message of d2l_attention.checks, and a piece of its
# Portuguese text
CHECK_CASES = [
    (
        lambda: masked_softmax(torch.rand(2, 3), None),
        "X precisa ser um tensor 3-D",
    ),
    (
        lambda: masked_softmax(torch.ones(2, 2, 3, dtype=torch.long), None),
        "pontuações em ponto flutuante",
    ),
    (lambda: masked_softmax(_scores(), [1, 2]), "um tensor ou None"),
    (
        lambda: masked_softmax(_scores(), torch.tensor([1, 2, 3])),
        "precisa ter formato (2,) ou (2, 2)",
    ),
    (
        lambda: masked_softmax(_scores(), torch.tensor([True, False])),
        "precisa ter inteiros",
    ),
    (
        lambda: masked_softmax(_scores(), torch.tensor([-1, 2])),
        "números inteiros >= 0",
    ),
    (
        lambda: _check_attention_inputs("q", *_qkv()[1:]),
        "o argumento queries precisa ser um tensor",
    ),
    (
        lambda: _check_attention_inputs(*_qkv(keys=(3, 4))),
        "o argumento keys precisa ser 3-D",
    ),
    (
        lambda: _check_attention_inputs(*_qkv(values=(1, 3, 5))),
        "os tamanhos de minilote não batem",
    ),
    (
        lambda: _check_attention_inputs(*_qkv(values=(2, 2, 5))),
        "chaves e valores precisam formar pares: 3 chaves, mas 2 valores",
    ),
    (
        lambda: _check_attention_inputs(*_qkv(), key_size=6),
        "o argumento keys precisa ter 6 atributos; recebido: 4",
    ),
    (
        lambda: _check_dot_product_inputs(*_qkv(queries=(2, 1, 5))),
        "tantos atributos quanto as chaves (4); recebido: 5",
    ),
    (
        lambda: _check_num_heads(100, 3),
        "num_hiddens (100) precisa ser divisível por num_heads (3)",
    ),
]


@pytest.mark.parametrize("call, portuguese_text", CHECK_CASES)
def test_check_messages_follow_the_language(portuguese, call, portuguese_text):
    with pytest.raises((ValueError, TypeError)) as raised:
        call()
    assert portuguese_text in str(raised.value)
    use_language("en")
    with pytest.raises(raised.type) as in_english:
        call()
    assert portuguese_text not in str(in_english.value)
    assert str(in_english.value) != str(raised.value)


def test_every_check_message_has_a_case():
    source = inspect.getsource(checks)
    called = [
        node
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "tr"
    ]
    assert len(called) == len(CHECK_CASES)


def test_an_unknown_language_is_refused():
    with pytest.raises(ValueError, match="one of 'en', 'pt_BR', got 'pt'"):
        use_language("pt")
    assert package_language.tr("epoch") == "epoch"  # still English


def test_show_heatmaps_message_follows_the_language(portuguese):
    with pytest.raises(ValueError, match="matrices precisa ser 4-D"):
        show_heatmaps(torch.rand(2, 3), "x", "y")
