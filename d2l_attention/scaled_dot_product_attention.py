# generated from notebooks/03_scaled_dot_product_attention.ipynb, do not edit

import math
import torch
from torch import nn
from .additive_attention import check_attention_inputs
from .masked_softmax import masked_softmax

__all__ = [
    "DotProductAttention",
]


class DotProductAttention(nn.Module):
    """Scaled dot-product attention: softmax(Q K^T / sqrt(d)) V.

    Defined in notebook 03.
    """

    def __init__(self, dropout, **kwargs):
        super().__init__(**kwargs)
        self.dropout = nn.Dropout(dropout)

    def forward(self, queries, keys, values, valid_lens=None):
        check_attention_inputs(queries, keys, values)
        d = keys.shape[-1]
        if queries.shape[-1] != d:  # a dot product pairs the features
            raise ValueError(f"queries must have as many features as the "
                             f"keys ({d}), got {queries.shape[-1]}")
        # (batch_size, queries, d) @ (batch_size, d, pairs)
        # -> (batch_size, no. of queries, no. of key-value pairs)
        scores = torch.bmm(queries, keys.transpose(1, 2)) / math.sqrt(d)
        self.attention_weights = masked_softmax(scores, valid_lens)
        weights = self.attention_weights
        if self.training:  # dropout is the identity in eval mode: skip it
            weights = self.dropout(weights)
        # (batch_size, queries, pairs) @ (batch_size, pairs, value size)
        # -> (batch_size, no. of queries, value size)
        return torch.bmm(weights, values)
