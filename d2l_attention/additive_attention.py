# generated, do not edit: the #@save cells of
# notebooks/02_additive_attention.ipynb

import torch
from torch import nn

from .checks import _check_attention_inputs
from .masking import masked_softmax

__all__ = [
    "AdditiveAttention",
]


class AdditiveAttention(nn.Module):
    """Additive attention: scores w_v^T tanh(W_q q + W_k k).

    Defined in notebook 02.
    """

    def __init__(self, key_size, query_size, num_hiddens, dropout, **kwargs):
        super().__init__(**kwargs)
        self.sizes = query_size, key_size  # for the input check
        self.W_k = nn.Linear(key_size, num_hiddens, bias=False)
        self.W_q = nn.Linear(query_size, num_hiddens, bias=False)
        self.w_v = nn.Linear(num_hiddens, 1, bias=False)
        self.dropout = nn.Dropout(dropout)

    def forward(self, queries, keys, values, valid_lens=None):
        _check_attention_inputs(queries, keys, values, *self.sizes)
        queries, keys = self.W_q(queries), self.W_k(keys)
        # (batch_size, no. of queries, 1, num_hiddens)
        # + (batch_size, 1, no. of keys, num_hiddens): every pair
        features = torch.tanh(queries.unsqueeze(2) + keys.unsqueeze(1))
        # (batch_size, no. of queries, no. of keys)
        scores = self.w_v(features).squeeze(-1)
        self.attention_weights = masked_softmax(scores, valid_lens)
        # (batch_size, no. of queries, value_size)
        return torch.bmm(self.dropout(self.attention_weights), values)
