# generated from notebooks/02_additive_attention.ipynb, do not edit

import torch
from torch import nn
from .masked_softmax import masked_softmax

__all__ = [
    "AdditiveAttention",
    "check_attention_inputs",
]


class AdditiveAttention(nn.Module):
    """Additive attention: scores w_v^T tanh(W_q q + W_k k).

    Defined in notebook 02.
    """

    def __init__(self, key_size, query_size, num_hiddens, dropout, **kwargs):
        super().__init__(**kwargs)
        self.key_size, self.query_size = key_size, query_size
        self.W_k = nn.Linear(key_size, num_hiddens, bias=False)
        self.W_q = nn.Linear(query_size, num_hiddens, bias=False)
        self.w_v = nn.Linear(num_hiddens, 1, bias=False)
        self.dropout = nn.Dropout(dropout)

    def forward(self, queries, keys, values, valid_lens=None):
        check_attention_inputs(queries, keys, values, self.query_size,
                               self.key_size)
        # (batch_size, no. of queries, num_hiddens),
        # (batch_size, no. of key-value pairs, num_hiddens)
        queries, keys = self.W_q(queries), self.W_k(keys)
        # (batch_size, queries, 1, num_hiddens) + (batch_size, 1, pairs,
        # num_hiddens) broadcasts to (batch_size, queries, pairs, num_hiddens)
        features = torch.tanh(queries.unsqueeze(2) + keys.unsqueeze(1))
        # (batch_size, no. of queries, no. of key-value pairs)
        scores = self.w_v(features).squeeze(-1)
        self.attention_weights = masked_softmax(scores, valid_lens)
        weights = self.attention_weights
        if self.training:  # dropout is the identity in eval mode: skip it
            weights = self.dropout(weights)
        # (batch_size, queries, pairs) @ (batch_size, pairs, value size)
        # -> (batch_size, no. of queries, value size)
        return torch.bmm(weights, values)


def check_attention_inputs(queries, keys, values, query_size=None,
                           key_size=None):
    """Raise ValueError/TypeError unless queries, keys, values fit together.

    Each must be 3-D, (batch_size, no. of items, features); batch sizes
    agree, keys and values pair up, and feature sizes are the expected
    ones where given. Defined in notebook 02.
    """
    named = {"queries": queries, "keys": keys, "values": values}
    for name, tensor in named.items():
        if not torch.is_tensor(tensor):
            raise TypeError(f"{name} must be a tensor, got "
                            f"{type(tensor).__name__}")
        if tensor.dim() != 3:
            raise ValueError(f"{name} must be 3-D (batch_size, no. of items,"
                             f" features), got shape {tuple(tensor.shape)}")
    sizes = {name: tensor.shape[0] for name, tensor in named.items()}
    if len(set(sizes.values())) > 1:
        raise ValueError(f"batch sizes disagree: {sizes}")
    if keys.shape[1] != values.shape[1]:
        raise ValueError(f"keys and values must pair up: {keys.shape[1]} "
                         f"keys but {values.shape[1]} values")
    for name, tensor, size in [("queries", queries, query_size),
                               ("keys", keys, key_size)]:
        if size is not None and tensor.shape[-1] != size:
            raise ValueError(f"{name} must have {size} features, got "
                             f"{tensor.shape[-1]}")
