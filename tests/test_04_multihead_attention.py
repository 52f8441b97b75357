"""Notebook 04: multi-head attention, against d2l 0.17.6 and PyTorch."""

import pytest
import torch

from d2l_attention import (
    FusedMultiHeadAttention,
    MultiHeadAttention,
    fused_attention,
    to_torch_multihead,
    transpose_output,
    transpose_qkv,
)

DEVICES = ["cpu"] + (["cuda"] if torch.cuda.is_available() else [])
TOLERANCE = {torch.float32: 1e-5, torch.float64: 1e-10}

# (batch, queries, key-value pairs, query_size, key_size, value_size,
#  num_hiddens, num_heads)
SHAPES = [
    (2, 4, 6, 100, 100, 100, 100, 5),
    (1, 1, 1, 8, 8, 8, 8, 1),
    (3, 5, 7, 12, 12, 12, 12, 4),
    (4, 3, 9, 16, 10, 6, 16, 8),
    (2, 6, 2, 24, 24, 24, 24, 24),
]
VALID_LENS = ["none", "1d", "2d"]


def make_inputs(shape, dtype, device, seed=0):
    """Return queries, keys, values for one entry of SHAPES."""
    batch, n_q, n_k, q_size, k_size, v_size = shape[:6]
    gen = torch.Generator().manual_seed(seed)
    queries = torch.randn(batch, n_q, q_size, generator=gen, dtype=dtype)
    keys = torch.randn(batch, n_k, k_size, generator=gen, dtype=dtype)
    values = torch.randn(batch, n_k, v_size, generator=gen, dtype=dtype)
    return queries.to(device), keys.to(device), values.to(device)


def make_valid_lens(kind, batch, n_q, n_k, device, low=1, seed=0):
    """Return None, (batch,) or (batch, n_q) lengths in [low, n_k]."""
    gen = torch.Generator().manual_seed(seed)
    if kind == "none":
        return None
    size = (batch,) if kind == "1d" else (batch, n_q)
    return torch.randint(low, n_k + 1, size, generator=gen).to(device)


def make_layer(shape, dtype, device, bias, fused=False):
    """Return our layer (or its fused variant) for one entry of SHAPES, in
    eval mode."""
    q_size, k_size, v_size, num_hiddens, num_heads = shape[3:]
    torch.manual_seed(0)
    layer_class = FusedMultiHeadAttention if fused else MultiHeadAttention
    layer = layer_class(
        k_size, q_size, v_size, num_hiddens, num_heads, 0.0, bias=bias
    )
    return layer.to(device=device, dtype=dtype).eval()


def torch_masks(valid_lens, num_heads, n_q, n_k):
    """Return (key_padding_mask, attn_mask) for nn.MultiheadAttention."""
    if valid_lens is None:
        return None, None
    positions = torch.arange(n_k, device=valid_lens.device)
    if valid_lens.dim() == 1:
        # (1, n_k) >= (batch, 1) -> (batch, n_k), True = ignore
        return positions[None, :] >= valid_lens[:, None], None
    # (batch * heads, n_q) -> (batch * heads, n_q, 1) vs (n_k,)
    per_row = torch.repeat_interleave(valid_lens, num_heads, dim=0)
    return None, positions >= per_row[:, :, None]


# ---- transpose_qkv / transpose_output --------------------------------------


@pytest.mark.parametrize("num_heads", [1, 2, 3, 6])
def test_transpose_output_undoes_transpose_qkv(num_heads):
    X = torch.randn(4, 5, 12)
    split = transpose_qkv(X, num_heads)
    assert split.shape == (4 * num_heads, 5, 12 // num_heads)
    assert torch.equal(transpose_output(split, num_heads), X)


def test_transpose_qkv_row_order_is_example_then_head():
    X = torch.randn(3, 4, 6)
    split = transpose_qkv(X, 2)
    for row in range(6):
        example, head = divmod(row, 2)
        assert torch.equal(split[row], X[example, :, 3 * head : 3 * head + 3])


def test_transpose_matches_d2l(d2l):
    X = torch.randn(2, 3, 8)
    assert torch.equal(transpose_qkv(X, 4), d2l.transpose_qkv(X, 4))
    Y = torch.randn(8, 3, 2)
    assert torch.equal(transpose_output(Y, 4), d2l.transpose_output(Y, 4))


# ---- cross-check against d2l 0.17.6 ----------------------------------------


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("kind", VALID_LENS)
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
@pytest.mark.parametrize("bias", [False, True])
def test_matches_d2l(d2l, shape, kind, dtype, bias):
    ours = make_layer(shape, dtype, "cpu", bias)
    q_size, k_size, v_size, num_hiddens, num_heads = shape[3:]
    theirs = d2l.MultiHeadAttention(
        k_size, q_size, v_size, num_hiddens, num_heads, 0.0, bias=bias
    )
    # d2l names its projections W_q, W_k, W_v, W_o too
    theirs.load_state_dict(ours.state_dict())
    theirs = theirs.to(dtype).eval()
    queries, keys, values = make_inputs(shape, dtype, "cpu")
    lens = make_valid_lens(kind, shape[0], shape[1], shape[2], "cpu")
    expected = theirs(queries, keys, values, lens)
    got = ours(queries, keys, values, lens)
    tol = TOLERANCE[dtype]
    assert got.dtype == dtype and got.shape == expected.shape
    assert torch.allclose(got, expected, atol=tol, rtol=tol)
    assert torch.allclose(
        ours.attention.attention_weights,
        theirs.attention.attention_weights,
        atol=tol,
    )


# ---- cross-check against torch.nn.MultiheadAttention -----------------------


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("shape", [s for s in SHAPES if s[3] == s[6]])
@pytest.mark.parametrize("kind", VALID_LENS)
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
@pytest.mark.parametrize("bias", [False, True])
def test_matches_torch_multihead(device, shape, kind, dtype, bias):
    ours = make_layer(shape, dtype, device, bias)
    theirs = to_torch_multihead(ours)
    queries, keys, values = make_inputs(shape, dtype, device)
    batch, n_q, n_k, num_heads = shape[0], shape[1], shape[2], shape[7]
    lens = make_valid_lens(kind, batch, n_q, n_k, device)
    padding, attn_mask = torch_masks(lens, num_heads, n_q, n_k)
    with torch.no_grad():
        expected, avg = theirs(
            queries,
            keys,
            values,
            key_padding_mask=padding,
            attn_mask=attn_mask,
        )
        _, per_head = theirs(
            queries,
            keys,
            values,
            key_padding_mask=padding,
            attn_mask=attn_mask,
            average_attn_weights=False,
        )
        got = ours(queries, keys, values, lens)
    tol = TOLERANCE[dtype]
    assert torch.allclose(got, expected, atol=tol, rtol=tol)
    weights = ours.attention_weights  # (batch, heads, queries, keys)
    assert torch.allclose(weights, per_head, atol=tol)
    assert torch.allclose(weights.mean(dim=1), avg, atol=tol)


def test_valid_length_zero_gives_zero_weights_on_any_torch_version():
    # nn.MultiheadAttention's output for a query without a valid key has
    # changed between PyTorch versions (NaN with torch 2.13 on the CPU):
    # ours is checked, theirs only where a valid key exists.
    shape = SHAPES[0]
    ours = make_layer(shape, torch.float32, "cpu", bias=True)
    theirs = to_torch_multihead(ours)
    queries, keys, values = make_inputs(shape, torch.float32, "cpu")
    lens = torch.tensor([0, 4])
    padding, _ = torch_masks(lens, shape[7], shape[1], shape[2])
    with torch.no_grad():
        expected, _ = theirs(queries, keys, values, key_padding_mask=padding)
        got = ours(queries, keys, values, lens)
    assert (ours.attention_weights[0] == 0).all()
    # no value reaches W_o, so the output is W_o's bias
    assert torch.allclose(got[0], ours.W_o.bias.expand(shape[1], -1))
    assert torch.allclose(got[1], expected[1], atol=1e-5)


# ---- the fused path (FusedMultiHeadAttention) ------------------------------


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("kind", VALID_LENS)
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_fused_path_matches_kept_weights(device, shape, kind, dtype):
    kept = make_layer(shape, dtype, device, bias=True)
    fused = make_layer(shape, dtype, device, bias=True, fused=True)
    queries, keys, values = make_inputs(shape, dtype, device)
    # low=0: rows without a valid key are included here
    lens = make_valid_lens(kind, shape[0], shape[1], shape[2], device, low=0)
    with torch.no_grad():
        expected = kept(queries, keys, values, lens)
        got = fused(queries, keys, values, lens)
    tol = TOLERANCE[dtype]
    assert torch.allclose(got, expected, atol=tol, rtol=tol)
    assert fused.attention_weights is None


def test_fused_attention_gives_zeros_without_valid_key():
    queries, keys, values = (torch.randn(2, 3, 4) for _ in range(3))
    out = fused_attention(
        queries, keys, values, torch.tensor([[0, 1, 3], [2, 0, 0]])
    )
    assert (out[0, 0] == 0).all() and (out[1, 1:] == 0).all()
    assert (out[0, 1:] != 0).any()


def test_fused_layer_has_the_same_parameters():
    shape = SHAPES[0]
    kept = make_layer(shape, torch.float32, "cpu", bias=True)
    fused = make_layer(shape, torch.float32, "cpu", bias=True, fused=True)
    assert {name: p.shape for name, p in kept.named_parameters()} == {
        name: p.shape for name, p in fused.named_parameters()
    }
    fused(*make_inputs(shape, torch.float32, "cpu"))
    assert fused.attention_weights is None


# ---- API contract ----------------------------------------------------------


def test_attention_weights_views_agree():
    shape = SHAPES[3]
    layer = make_layer(shape, torch.float32, "cpu", bias=False)
    queries, keys, values = make_inputs(shape, torch.float32, "cpu")
    layer(queries, keys, values, torch.tensor([1, 5, 9, 3]))
    flat = layer.attention.attention_weights
    assert flat.shape == (4 * 8, 3, 9)
    assert torch.equal(layer.attention_weights.reshape(flat.shape), flat)
    assert (layer.attention_weights[0, :, :, 1:] == 0).all()


@pytest.mark.parametrize("fused", [False, True])
def test_gradients_reach_every_projection(fused):
    shape = SHAPES[2]
    layer = make_layer(shape, torch.float64, "cpu", True, fused)
    layer.train()
    queries, keys, values = make_inputs(shape, torch.float64, "cpu")
    layer(queries, keys, values, torch.tensor([2, 7, 5])).sum().backward()
    for name in ["W_q", "W_k", "W_v", "W_o"]:
        assert getattr(layer, name).weight.grad.abs().sum() > 0, name


@pytest.mark.parametrize("fused", [False, True])
@pytest.mark.parametrize("kind", ["1d", "2d"])
def test_inputs_are_not_modified(fused, kind):
    shape = SHAPES[0]
    layer = make_layer(shape, torch.float32, "cpu", True, fused)
    inputs = make_inputs(shape, torch.float32, "cpu")
    lens = make_valid_lens(kind, shape[0], shape[1], shape[2], "cpu")
    copies = [t.clone() for t in inputs] + [lens.clone()]
    layer(*inputs, lens)
    for before, after in zip(copies, [*inputs, lens], strict=True):
        assert torch.equal(before, after)


# ---- bad input -------------------------------------------------------------


@pytest.mark.parametrize("num_hiddens, num_heads", [(100, 3), (10, 4), (8, 0)])
def test_heads_must_divide_num_hiddens(num_hiddens, num_heads):
    with pytest.raises(ValueError) as info:
        MultiHeadAttention(8, 8, 8, num_hiddens, num_heads, 0.0)
    assert str(num_hiddens) in str(info.value)
    assert str(num_heads) in str(info.value)


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda q, k, v: (q[..., :3], k, v), "queries must have 10"),
        (lambda q, k, v: (q, k[..., :3], v), "keys must have 12"),
        (lambda q, k, v: (q, k, v[..., :3]), "values must have 14"),
        (lambda q, k, v: (q, k, v[:, :4]), "pair up"),
        (lambda q, k, v: (q[:1], k, v), "batch sizes disagree"),
        (lambda q, k, v: (q[0], k, v), "must be 3-D"),
    ],
)
def test_mismatched_inputs_fail_clearly(change, message):
    layer = MultiHeadAttention(12, 10, 14, 20, 4, 0.0)
    queries = torch.randn(2, 3, 10)
    keys, values = torch.randn(2, 5, 12), torch.randn(2, 5, 14)
    with pytest.raises(ValueError, match=message):
        layer(*change(queries, keys, values))


@pytest.mark.parametrize(
    "lens, error",
    [
        (torch.tensor([1, 2, 3]), ValueError),  # 3 lengths for 2 examples
        (torch.tensor([[1, 2], [3, 4]]), ValueError),  # 2 queries, not 3
        (torch.tensor([-1, 2]), ValueError),
        (torch.tensor([1.5, 2.0]), ValueError),
        (torch.tensor([True, False]), TypeError),
        ([1, 2], TypeError),
    ],
)
@pytest.mark.parametrize("fused", [False, True])
def test_bad_valid_lens_fail_clearly(lens, error, fused):
    layer_class = FusedMultiHeadAttention if fused else MultiHeadAttention
    layer = layer_class(12, 10, 14, 20, 4, 0.0)
    queries = torch.randn(2, 3, 10)
    keys, values = torch.randn(2, 5, 12), torch.randn(2, 5, 14)
    with pytest.raises(error, match="valid_lens"):
        layer(queries, keys, values, lens)


def test_non_tensor_input_is_a_type_error():
    layer = MultiHeadAttention(4, 4, 4, 4, 2, 0.0)
    with pytest.raises(TypeError, match="keys must be a tensor"):
        layer(torch.randn(1, 2, 4), [[0.0] * 4], torch.randn(1, 1, 4))


# ---- dropout ---------------------------------------------------------------


@pytest.mark.parametrize("fused", [False, True])
def test_dropout_acts_in_training_mode_only_and_is_unbiased(fused):
    torch.manual_seed(0)
    layer_class = FusedMultiHeadAttention if fused else MultiHeadAttention
    layer = layer_class(8, 8, 8, 8, 2, 0.5)
    queries, keys, values = make_inputs(
        (1, 3, 5, 8, 8, 8), torch.float32, "cpu"
    )
    lens = torch.tensor([4])
    layer.eval()
    with torch.no_grad():
        expected = layer(queries, keys, values, lens)
        assert torch.equal(layer(queries, keys, values, lens), expected)
        layer.train()
        draws = 20_000  # one example repeated: one dropout draw per row
        out = layer(
            queries.expand(draws, -1, -1),
            keys.expand(draws, -1, -1),
            values.expand(draws, -1, -1),
            lens.expand(draws),
        )
    # training mode: dropout changes the output of almost every draw ...
    changed = (out - expected).abs().amax(dim=(1, 2)) > 1e-6
    assert changed.float().mean() > 0.9
    # ... and its mean over the draws is the eval output (5 standard errors)
    error = (out.mean(dim=0) - expected[0]).abs()
    assert (error < 5 * out.std(dim=0) / draws**0.5 + 1e-6).all()


def test_fused_attention_dropout_is_unbiased():
    gen = torch.Generator().manual_seed(0)
    queries, keys = (
        torch.randn(1, 3, 4, generator=gen),
        torch.randn(1, 5, 4, generator=gen),
    )
    values = torch.randn(1, 5, 6, generator=gen)
    lens = torch.tensor([[5, 2, 0]])
    expected = fused_attention(queries, keys, values, lens)
    torch.manual_seed(0)
    draws = 20_000
    out = fused_attention(
        queries.expand(draws, -1, -1),
        keys.expand(draws, -1, -1),
        values.expand(draws, -1, -1),
        lens.expand(draws, -1),
        dropout_p=0.5,
    )
    assert (out[:, 2] == 0).all()  # no valid key: zeros, dropout or not
    changed = (out[:, :2] - expected[:, :2]).abs().amax(dim=(1, 2)) > 1e-6
    assert changed.float().mean() > 0.9
    error = (out.mean(dim=0) - expected[0]).abs()
    assert (error < 5 * out.std(dim=0) / draws**0.5 + 1e-6).all()


@pytest.mark.parametrize("fused", [False, True])
def test_one_call_reads_the_valid_lengths_once(monkeypatch, fused):
    import d2l_attention.masking as masking

    reads = []
    check = masking._check_valid_lens_values
    monkeypatch.setattr(
        masking,
        "_check_valid_lens_values",
        lambda lens: reads.append(lens) or check(lens),
    )
    layer = make_layer(
        SHAPES[0], torch.float32, "cpu", bias=False, fused=fused
    )
    queries, keys, values = make_inputs(SHAPES[0], torch.float32, "cpu")
    lens = torch.ones(queries.shape[0], dtype=torch.long)
    layer(queries, keys, values, lens)
    assert len(reads) == 1
    with pytest.raises(ValueError, match=">= 0"):
        layer(queries, keys, values, -lens)
