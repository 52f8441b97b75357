# generated, do not edit: the #@save cells of
# notebooks/04_multihead_attention.ipynb

import torch
from torch import nn

from .checks import (
    _check_attention_inputs,
    _check_dot_product_inputs,
    _check_num_heads,
    _check_valid_lens,
)
from .masking import valid_lens_to_mask
from .scaled_dot_product_attention import DotProductAttention

__all__ = [
    "transpose_qkv",
    "transpose_output",
    "MultiHeadAttention",
    "fused_attention",
    "FusedDotProductAttention",
    "FusedMultiHeadAttention",
    "to_torch_multihead",
]


def transpose_qkv(X, num_heads):
    """Return X split into heads, one batch entry per example and head.

    (batch_size, no. of items, num_hiddens) -> (batch_size * num_heads,
    no. of items, num_hiddens / num_heads). Defined in notebook 04.
    """
    batch_size, num_items, num_hiddens = X.shape
    # (batch_size, no. of items, num_heads, num_hiddens / num_heads)
    X = X.reshape(batch_size, num_items, num_heads, num_hiddens // num_heads)
    # (batch_size, num_heads, no. of items, num_hiddens / num_heads)
    X = X.permute(0, 2, 1, 3)
    # (batch_size * num_heads, no. of items, num_hiddens / num_heads)
    return X.reshape(batch_size * num_heads, num_items, -1)


def transpose_output(X, num_heads):
    """Return the heads of X side by side again: undoes transpose_qkv.

    Defined in notebook 04.
    """
    # rows: batch_size * num_heads; head_size: num_hiddens / num_heads
    rows, num_items, head_size = X.shape
    # (batch_size, num_heads, no. of items, num_hiddens / num_heads)
    X = X.reshape(rows // num_heads, num_heads, num_items, head_size)
    # (batch_size, no. of items, num_heads, num_hiddens / num_heads)
    X = X.permute(0, 2, 1, 3)
    # (batch_size, no. of items, num_hiddens)
    return X.reshape(rows // num_heads, num_items, num_heads * head_size)


class MultiHeadAttention(nn.Module):
    """Multi-head attention: W_o [h_0; ...; h_{h-1}], dot-product heads.

    Defined in notebook 04.
    """

    def __init__(
        self,
        key_size,
        query_size,
        value_size,
        num_hiddens,
        num_heads,
        dropout,
        bias=False,
        **kwargs,
    ):
        super().__init__(**kwargs)
        _check_num_heads(num_hiddens, num_heads)
        self.num_heads = num_heads
        self.sizes = (query_size, key_size, value_size)
        self.attention = DotProductAttention(dropout)
        self.W_q = nn.Linear(query_size, num_hiddens, bias=bias)
        self.W_k = nn.Linear(key_size, num_hiddens, bias=bias)
        self.W_v = nn.Linear(value_size, num_hiddens, bias=bias)
        self.W_o = nn.Linear(num_hiddens, num_hiddens, bias=bias)

    def forward(self, queries, keys, values, valid_lens=None):
        _check_attention_inputs(queries, keys, values, *self.sizes)
        _check_valid_lens(valid_lens, queries.shape[0], queries.shape[1])
        # each: (batch_size * num_heads, no. of queries or keys,
        # num_hiddens / num_heads)
        queries = transpose_qkv(self.W_q(queries), self.num_heads)
        keys = transpose_qkv(self.W_k(keys), self.num_heads)
        values = transpose_qkv(self.W_v(values), self.num_heads)
        if valid_lens is not None:
            # each example's lengths once per head, in the row order above:
            # (batch_size * num_heads,) or
            # (batch_size * num_heads, no. of queries)
            valid_lens = torch.repeat_interleave(
                valid_lens, self.num_heads, dim=0
            )
        # (batch_size * num_heads, no. of queries, num_hiddens / num_heads)
        output = self.attention(queries, keys, values, valid_lens)
        # -> (batch_size, no. of queries, num_hiddens)
        return self.W_o(transpose_output(output, self.num_heads))

    @property
    def attention_weights(self):
        """Return the last weights as (batch_size, num_heads, no. of
        queries, no. of keys)."""
        weights = getattr(self.attention, "attention_weights", None)
        if weights is None:
            return None
        rows, num_queries, num_keys = weights.shape
        # (batch_size * num_heads, no. of queries, no. of keys)
        # -> (batch_size, num_heads, no. of queries, no. of keys)
        return weights.reshape(
            rows // self.num_heads, self.num_heads, num_queries, num_keys
        )


def fused_attention(queries, keys, values, valid_lens=None, dropout_p=0.0):
    """Return DotProductAttention's output computed by PyTorch's fused op.

    Same masking; a query with no valid key gets zeros on the CPU with
    the pinned PyTorch. No weights are kept. Defined in notebook 04.
    """
    mask = None
    if valid_lens is not None:
        # (batch_size, 1 or no. of queries, no. of keys), with a head axis:
        # (batch_size, 1, 1 or no. of queries, no. of keys)
        mask = valid_lens_to_mask(valid_lens, keys.shape[1], queries.device)[
            :, None
        ]
    # a head axis of size 1, (batch_size, 1, no. of items, features):
    # PyTorch's fused CPU kernel takes 4-D inputs only, 3-D ones go to its
    # unfused path
    queries, keys, values = (X[:, None] for X in (queries, keys, values))
    # (batch_size, 1, no. of queries, d) @ (batch_size, 1, d, no. of keys)
    # -> softmax -> @ (batch_size, 1, no. of keys, value_size)
    # -> (batch_size, 1, no. of queries, value_size)
    output = nn.functional.scaled_dot_product_attention(
        queries, keys, values, attn_mask=mask, dropout_p=dropout_p
    )
    return output[:, 0]  # (batch_size, no. of queries, value_size)


class FusedDotProductAttention(DotProductAttention):
    """DotProductAttention computed by fused_attention: no weights kept.

    Defined in notebook 04.
    """

    def forward(self, queries, keys, values, valid_lens=None):
        # the checks of DotProductAttention and of its masked_softmax
        _check_dot_product_inputs(queries, keys, values)
        _check_valid_lens(valid_lens, queries.shape[0], queries.shape[1])
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
    if query_size != ours.W_q.out_features:
        raise ValueError(
            "nn.MultiheadAttention needs query_size == "
            f"num_hiddens, got {query_size} and "
            f"{ours.W_q.out_features}"
        )
    theirs = nn.MultiheadAttention(
        query_size,
        ours.num_heads,
        dropout=ours.attention.dropout.p,
        bias=ours.W_q.bias is not None,
        kdim=key_size,
        vdim=value_size,
        batch_first=True,
        device=ours.W_q.weight.device,
        dtype=ours.W_q.weight.dtype,
    )
    projections = [ours.W_q, ours.W_k, ours.W_v]
    with torch.no_grad():
        if theirs.in_proj_weight is not None:  # one packed matrix
            theirs.in_proj_weight.copy_(
                torch.cat([layer.weight for layer in projections])
            )
        else:  # kdim or vdim differ from embed_dim: three matrices
            for name, layer in zip("qkv", projections, strict=True):
                getattr(theirs, f"{name}_proj_weight").copy_(layer.weight)
        theirs.out_proj.weight.copy_(ours.W_o.weight)
        if theirs.in_proj_bias is not None:
            theirs.in_proj_bias.copy_(
                torch.cat([layer.bias for layer in projections])
            )
            theirs.out_proj.bias.copy_(ours.W_o.bias)
    return theirs
