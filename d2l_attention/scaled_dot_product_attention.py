# generated, do not edit: the #@save cells of
# notebooks/03_scaled_dot_product_attention.ipynb

import math

import torch
from torch import nn

from .checks import _check_dot_product_inputs
from .masking import masked_softmax

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
        _check_dot_product_inputs(queries, keys, values)
        d = queries.shape[-1]
        # (batch_size, no. of queries, d) @ (batch_size, d, no. of keys)
        # -> (batch_size, no. of queries, no. of keys)
        scores = torch.bmm(queries, keys.transpose(1, 2)) / math.sqrt(d)
        self.attention_weights = masked_softmax(scores, valid_lens)
        # (batch_size, no. of queries, no. of keys)
        # @ (batch_size, no. of keys, value_size)
        # -> (batch_size, no. of queries, value_size)
        return torch.bmm(self.dropout(self.attention_weights), values)
