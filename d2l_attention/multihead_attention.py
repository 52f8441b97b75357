# generated from notebooks/04_multihead_attention.ipynb, do not edit

import torch
from torch import nn
from .scaled_dot_product_attention import DotProductAttention
from .additive_attention import check_attention_inputs
from .masked_softmax import check_valid_lens_shape, valid_lens_to_mask

__all__ = [
    "transpose_qkv",
    "transpose_output",
    "check_multihead_inputs",
    "MultiHeadAttention",
    "fused_attention",
    "FusedDotProductAttention",
    "FusedMultiHeadAttention",
    "to_torch_multihead",
]


def transpose_qkv(X, num_heads):
    """Return X split into heads: (batch * heads, items, hiddens / heads).

    Defined in notebook 04.
    """
    # (batch_size, no. of items, num_heads, num_hiddens / num_heads)
    X = X.reshape(X.shape[0], X.shape[1], num_heads, -1)
    # (batch_size, num_heads, no. of items, num_hiddens / num_heads)
    X = X.permute(0, 2, 1, 3)
    # (batch_size * num_heads, no. of items, num_hiddens / num_heads)
    return X.reshape(-1, X.shape[2], X.shape[3])


def transpose_output(X, num_heads):
    """Return the heads of X side by side again: undoes transpose_qkv.

    Defined in notebook 04.
    """
    # (batch_size, num_heads, no. of items, num_hiddens / num_heads)
    X = X.reshape(-1, num_heads, X.shape[1], X.shape[2])
    # (batch_size, no. of items, num_heads, num_hiddens / num_heads)
    X = X.permute(0, 2, 1, 3)
    # (batch_size, no. of items, num_hiddens)
    return X.reshape(X.shape[0], X.shape[1], -1)


def check_multihead_inputs(queries, keys, values, valid_lens, sizes):
    """Raise ValueError/TypeError unless the inputs suit a multi-head layer.

    sizes is (query_size, key_size, value_size). Defined in notebook 04.
    """
    query_size, key_size, value_size = sizes
    check_attention_inputs(queries, keys, values, query_size, key_size)
    if values.shape[-1] != value_size:
        raise ValueError(f"values must have {value_size} features, got "
                         f"{values.shape[-1]}")
    if valid_lens is not None:
        # one length per example, or one per query
        check_valid_lens_shape(valid_lens, queries.shape[0], queries.shape[1])


class MultiHeadAttention(nn.Module):
    """Multi-head attention: W_o [h_1; ...; h_h], dot-product heads h_i.

    Defined in notebook 04.
    """

    def __init__(self, key_size, query_size, value_size, num_hiddens,
                 num_heads, dropout, bias=False, **kwargs):
        super().__init__(**kwargs)
        if num_heads < 1 or num_hiddens % num_heads != 0:
            raise ValueError(f"num_hiddens ({num_hiddens}) must be divisible "
                             f"by num_heads ({num_heads})")
        self.num_heads = num_heads
        self.sizes = (query_size, key_size, value_size)
        self.attention = DotProductAttention(dropout)
        self.W_q = nn.Linear(query_size, num_hiddens, bias=bias)
        self.W_k = nn.Linear(key_size, num_hiddens, bias=bias)
        self.W_v = nn.Linear(value_size, num_hiddens, bias=bias)
        self.W_o = nn.Linear(num_hiddens, num_hiddens, bias=bias)

    def forward(self, queries, keys, values, valid_lens=None):
        check_multihead_inputs(queries, keys, values, valid_lens, self.sizes)
        # each: (batch_size * num_heads, no. of queries or key-value pairs,
        # num_hiddens / num_heads)
        queries = transpose_qkv(self.W_q(queries), self.num_heads)
        keys = transpose_qkv(self.W_k(keys), self.num_heads)
        values = transpose_qkv(self.W_v(values), self.num_heads)
        if valid_lens is not None:
            # each example's lengths once per head, in the row order above:
            # (batch_size * num_heads,) or (batch_size * num_heads, queries)
            valid_lens = torch.repeat_interleave(valid_lens, self.num_heads,
                                                 dim=0)
        # (batch_size * num_heads, no. of queries, num_hiddens / num_heads)
        output = self.attention(queries, keys, values, valid_lens)
        # -> (batch_size, no. of queries, num_hiddens)
        return self.W_o(transpose_output(output, self.num_heads))

    @property
    def attention_weights(self):
        """Return the last weights as (batch, heads, queries, keys)."""
        weights = getattr(self.attention, "attention_weights", None)
        if weights is None:
            return None
        # (batch_size * num_heads, q, k) -> (batch_size, num_heads, q, k)
        return weights.reshape(-1, self.num_heads, *weights.shape[1:])


def fused_attention(queries, keys, values, valid_lens=None, dropout_p=0.0):
    """Return DotProductAttention's output computed by PyTorch's fused op.

    Same masking, rows without a valid key give zeros, no weights are
    kept. Defined in notebook 04.
    """
    mask = None
    if valid_lens is not None:
        # (batch, 1 or no. of queries, no. of keys), with a head axis:
        # (batch, 1, 1 or q, no. of keys)
        mask = valid_lens_to_mask(valid_lens.to(queries.device),
                                  keys.shape[1])[:, None]
    # a head axis of size 1, (batch, 1, items, features): PyTorch's fused
    # CPU kernel takes 4-D inputs only, 3-D ones go to its unfused path
    queries, keys, values = (X[:, None] for X in (queries, keys, values))
    # (batch, 1, q, d) @ (batch, 1, d, keys) -> softmax -> @ (batch, 1, keys,
    # value size) -> (batch, 1, no. of queries, value size)
    output = nn.functional.scaled_dot_product_attention(
        queries, keys, values, attn_mask=mask, dropout_p=dropout_p)
    if mask is not None:
        # (batch, 1, 1 or q, 1): False where a query has no valid key
        output = output.masked_fill(~mask.any(dim=-1, keepdim=True), 0)
    return output[:, 0]  # (batch, no. of queries, value size)


class FusedDotProductAttention(DotProductAttention):
    """DotProductAttention computed by fused_attention: no weights kept.

    Defined in notebook 04.
    """

    def forward(self, queries, keys, values, valid_lens=None):
        # the same checks as DotProductAttention: keys as wide as queries
        check_attention_inputs(queries, keys, values,
                               key_size=queries.shape[-1])
        if valid_lens is not None:
            check_valid_lens_shape(valid_lens, *queries.shape[:2])
        self.attention_weights = None
        dropout_p = self.dropout.p if self.training else 0.0
        return fused_attention(queries, keys, values, valid_lens, dropout_p)


class FusedMultiHeadAttention(MultiHeadAttention):
    """MultiHeadAttention whose heads run in PyTorch's fused kernel.

    Same parameters and output; keeps no weights. Defined in notebook 04.
    """

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.attention = FusedDotProductAttention(self.attention.dropout.p)


def to_torch_multihead(ours):
    """Return an nn.MultiheadAttention holding the weights of ours.

    Defined in notebook 04.
    """
    query_size, key_size, value_size = ours.sizes
    theirs = nn.MultiheadAttention(
        query_size, ours.num_heads, dropout=ours.attention.dropout.p,
        bias=ours.W_q.bias is not None, kdim=key_size, vdim=value_size,
        batch_first=True, device=ours.W_q.weight.device,
        dtype=ours.W_q.weight.dtype)
    projections = [ours.W_q, ours.W_k, ours.W_v]
    with torch.no_grad():
        if theirs.in_proj_weight is not None:  # one packed matrix
            theirs.in_proj_weight.copy_(
                torch.cat([layer.weight for layer in projections]))
        else:  # kdim or vdim differ from embed_dim: three matrices
            for name, layer in zip("qkv", projections, strict=True):
                getattr(theirs, f"{name}_proj_weight").copy_(layer.weight)
        theirs.out_proj.weight.copy_(ours.W_o.weight)
        if theirs.in_proj_bias is not None:
            theirs.in_proj_bias.copy_(
                torch.cat([layer.bias for layer in projections]))
            theirs.out_proj.bias.copy_(ours.W_o.bias)
    return theirs
