# generated from notebooks/03_scaled_dot_product_attention.ipynb, do not edit

import math
import torch
from torch import nn
from .additive_attention import check_attention_inputs
from .masked_softmax import masked_softmax

__all__ = [
    "DotProductAttention",
    "valid_lens_to_mask",
]


class DotProductAttention(nn.Module):
    """Scaled dot-product attention: softmax(Q K^T / sqrt(d)) V.

    Defined in notebook 03.
    """

    def __init__(self, dropout, **kwargs):
        super().__init__(**kwargs)
        self.dropout = nn.Dropout(dropout)

    def forward(self, queries, keys, values, valid_lens=None):
        check_attention_inputs(queries, keys, values,
                               key_size=queries.shape[-1])
        d = queries.shape[-1]
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


def valid_lens_to_mask(valid_lens, num_keys):
    """Return a boolean mask, True where a key is within the valid length.

    Shape (batch_size, 1, no. of keys) for 1-D valid lengths, which
    broadcasts over the queries, or (batch_size, no. of queries, no. of
    keys) for 2-D ones. Defined in notebook 03.
    """
    if valid_lens.dim() == 1:
        valid_lens = valid_lens[:, None]  # (batch_size, 1): every query
    positions = torch.arange(num_keys, device=valid_lens.device)
    # (keys,) < (batch_size, 1 or queries, 1)
    # -> (batch_size, 1 or no. of queries, no. of keys)
    return positions < valid_lens[..., None]
