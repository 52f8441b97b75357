# generated, do not edit: the #@save cells of
# notebooks/01_masked_softmax.ipynb
# notebooks/02_additive_attention.ipynb
# notebooks/03_scaled_dot_product_attention.ipynb
# notebooks/04_multihead_attention.ipynb

import torch

__all__ = [
    "check_scores",
    "check_valid_lens",
    "check_valid_lens_values",
    "check_attention_inputs",
    "check_dot_product_inputs",
    "check_num_heads",
]


def check_scores(X, valid_lens):
    """Raise ValueError/TypeError unless X is scores that valid_lens fits.

    Defined in notebook 01.
    """
    if not torch.is_tensor(X) or X.dim() != 3:
        shape = tuple(X.shape) if torch.is_tensor(X) else type(X).__name__
        raise ValueError("X must be a 3-D tensor (batch_size, no. of "
                         f"queries, no. of keys), got {shape}")
    if not X.is_floating_point():
        raise TypeError(f"X must hold floating-point scores, got {X.dtype}")
    check_valid_lens(valid_lens, X.shape[0], X.shape[1])


def check_valid_lens(valid_lens, batch_size, num_queries):
    """Raise ValueError/TypeError unless valid_lens suits such a batch.

    valid_lens: None, one length per example, (batch_size,), or one per
    query, (batch_size, num_queries). Reads shapes and dtype only, not the
    values.
    Defined in notebook 01.
    """
    if valid_lens is None:
        return
    if not torch.is_tensor(valid_lens):
        raise TypeError("valid_lens must be a tensor or None, got "
                        f"{type(valid_lens).__name__}")
    if valid_lens.shape not in [(batch_size,), (batch_size, num_queries)]:
        raise ValueError(
            f"valid_lens must have shape ({batch_size},) or ({batch_size}, "
            f"{num_queries}), one length per example or per query, got "
            f"{tuple(valid_lens.shape)}")
    if valid_lens.dtype == torch.bool or valid_lens.is_complex():
        raise TypeError(f"valid_lens must be integers, got {valid_lens.dtype}")


def check_valid_lens_values(valid_lens):
    """Raise ValueError unless valid_lens holds whole numbers >= 0.

    Reads the values: on a GPU, waits for them. Defined in notebook 01.
    """
    bad = valid_lens < 0
    if valid_lens.is_floating_point():
        bad |= valid_lens != valid_lens.round()
    if bad.any():
        raise ValueError("valid_lens must be whole numbers >= 0, got "
                         f"{valid_lens.tolist()}")


def check_attention_inputs(queries, keys, values, query_size=None,
                           key_size=None, value_size=None):
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
    batch_sizes = {name: tensor.shape[0] for name, tensor in named.items()}
    if len(set(batch_sizes.values())) > 1:
        raise ValueError(f"batch sizes disagree: {batch_sizes}")
    if keys.shape[1] != values.shape[1]:
        raise ValueError(f"keys and values must pair up: {keys.shape[1]} "
                         f"keys but {values.shape[1]} values")
    expected = {"queries": query_size, "keys": key_size,
                "values": value_size}
    for name, size in expected.items():
        if size is not None and named[name].shape[-1] != size:
            raise ValueError(f"{name} must have {size} features, got "
                             f"{named[name].shape[-1]}")


def check_dot_product_inputs(queries, keys, values):
    """Raise ValueError/TypeError unless the inputs suit a dot product.

    As check_attention_inputs, and queries have as many features as the
    keys, since a dot product pairs them. Defined in notebook 03.
    """
    check_attention_inputs(queries, keys, values)
    d = keys.shape[-1]
    if queries.shape[-1] != d:
        raise ValueError(f"queries must have as many features as the "
                         f"keys ({d}), got {queries.shape[-1]}")


def check_num_heads(num_hiddens, num_heads):
    """Raise ValueError unless num_heads heads split num_hiddens evenly.

    Defined in notebook 04.
    """
    if num_heads < 1 or num_hiddens % num_heads != 0:
        raise ValueError(f"num_hiddens ({num_hiddens}) must be divisible "
                         f"by num_heads ({num_heads})")
