# generated, do not edit: the #@save cells of
# notebooks/01_masked_softmax.ipynb

import torch
from torch import nn

from .checks import _check_scores, _check_valid_lens, _check_valid_lens_values

__all__ = [
    "valid_lens_to_mask",
    "masked_softmax",
    "sequence_mask",
]


def valid_lens_to_mask(valid_lens, num_keys, device=None):
    """Return a boolean mask, True where a key is within the valid length.

    Shape (batch_size, 1, no. of keys) for 1-D valid lengths, which
    broadcasts over the queries, or (batch_size, no. of queries, no. of
    keys) for 2-D ones; on device (default: that of valid_lens).
    Defined in notebook 01.
    """
    _check_valid_lens_values(valid_lens)  # before a copy to the GPU
    valid_lens = valid_lens.to(device)
    if valid_lens.dim() == 1:
        valid_lens = valid_lens[:, None]  # (batch_size, 1): every query
    positions = torch.arange(num_keys, device=valid_lens.device)
    # (no. of keys,) < (batch_size, 1 or no. of queries, 1)
    # -> (batch_size, 1 or no. of queries, no. of keys)
    return positions < valid_lens[..., None]


def masked_softmax(X, valid_lens):
    """Return the softmax of X over its last axis, masking past valid_lens.

    X: (batch_size, no. of queries, no. of keys); valid_lens: None,
    (batch_size,) or (batch_size, no. of queries). Keys past a valid
    length get weight 0, and a row with no valid key (length 0) comes
    back as all zeros. Defined in notebook 01.
    """
    _check_scores(X, valid_lens)
    if valid_lens is None:
        return nn.functional.softmax(X, dim=-1)
    # (batch_size, 1 or no. of queries, no. of keys), True = keep
    keep = valid_lens_to_mask(valid_lens, X.shape[-1], X.device)
    # most negative finite number of X's dtype: its exp is 0, and unlike
    # -1e6 it exists in float16 (see the optional part)
    lowest = torch.finfo(X.dtype).min
    weights = nn.functional.softmax(torch.where(keep, X, lowest), dim=-1)
    # a row with no valid key gets zero weights (see below)
    return torch.where(keep, weights, 0.0)


def sequence_mask(X, valid_len, value=0):
    """Return a copy of X with entries past valid_len on axis 1 set to value.

    Defined in notebook 01.
    """
    _check_valid_lens(valid_len, X.shape[0], 1)  # one length per row
    # (batch_size, 1, num_steps) -> (batch_size, num_steps)
    keep = valid_lens_to_mask(valid_len, X.shape[1], X.device)[:, 0]
    # one trailing axis of size 1 per feature axis of X, for broadcasting
    keep = keep.reshape(keep.shape + (1,) * (X.dim() - 2))
    return X.masked_fill(~keep, value)
