"""The input checks: each raises a clear error, naming the problem, when a
call of the package gets what it cannot use.

Written by hand, like language.py: the notebooks call them (the first line
of masked_softmax, of each attention layer's forward) and import them from
the package; tests/test_01_masked_softmax.py goes through every message.
"""

import torch

from .language import tr

__all__ = []


def _check_scores(X, valid_lens):
    """Raise ValueError/TypeError unless X is scores that valid_lens fits.

    First used in notebook 01.
    """
    if not torch.is_tensor(X) or X.dim() != 3:
        shape = tuple(X.shape) if torch.is_tensor(X) else type(X).__name__
        raise ValueError(
            tr(
                "X must be a 3-D tensor (batch_size, no. of queries, no. of "
                "keys), got {shape}",
                shape=shape,
            )
        )
    if not X.is_floating_point():
        raise TypeError(
            tr("X must hold floating-point scores, got {dtype}", dtype=X.dtype)
        )
    _check_valid_lens(valid_lens, X.shape[0], X.shape[1])


def _check_valid_lens(valid_lens, batch_size, num_queries):
    """Raise ValueError/TypeError unless valid_lens suits such a batch.

    valid_lens: None, one length per example, (batch_size,), or one per
    query, (batch_size, num_queries). Reads shapes and dtype only, not the
    values.
    First used in notebook 01.
    """
    if valid_lens is None:
        return
    if not torch.is_tensor(valid_lens):
        got = type(valid_lens).__name__
        raise TypeError(
            tr("valid_lens must be a tensor or None, got {got}", got=got)
        )
    if valid_lens.shape not in [(batch_size,), (batch_size, num_queries)]:
        shapes, got = f"({batch_size},)", tuple(valid_lens.shape)
        raise ValueError(
            tr(
                "valid_lens must have shape {shapes} or ({batch_size}, "
                "{num_queries}), one length per example or per query, got "
                "{got}",
                shapes=shapes,
                batch_size=batch_size,
                num_queries=num_queries,
                got=got,
            )
        )
    if valid_lens.dtype == torch.bool or valid_lens.is_complex():
        raise TypeError(
            tr(
                "valid_lens must be integers, got {dtype}",
                dtype=valid_lens.dtype,
            )
        )


def _check_valid_lens_values(valid_lens):
    """Raise ValueError unless valid_lens holds whole numbers >= 0.

    Reads the values: on a GPU, waits for them. First used in notebook 01.
    """
    bad = valid_lens < 0
    if valid_lens.is_floating_point():
        bad |= valid_lens != valid_lens.round()
    if bad.any():
        got = valid_lens.tolist()
        raise ValueError(
            tr("valid_lens must be whole numbers >= 0, got {got}", got=got)
        )


def _check_attention_inputs(
    queries, keys, values, query_size=None, key_size=None, value_size=None
):
    """Raise ValueError/TypeError unless queries, keys, values fit together.

    Each must be 3-D, (batch_size, no. of items, features); batch sizes
    agree, keys and values pair up, and feature sizes are the expected
    ones where given. First used in notebook 02.
    """
    named = {"queries": queries, "keys": keys, "values": values}
    for name, tensor in named.items():
        if not torch.is_tensor(tensor):
            got = type(tensor).__name__
            raise TypeError(
                tr("{name} must be a tensor, got {got}", name=name, got=got)
            )
        if tensor.dim() != 3:
            got = tuple(tensor.shape)
            raise ValueError(
                tr(
                    "{name} must be 3-D (batch_size, no. of items, "
                    "features), got shape {got}",
                    name=name,
                    got=got,
                )
            )
    batch_sizes = {name: tensor.shape[0] for name, tensor in named.items()}
    if len(set(batch_sizes.values())) > 1:
        raise ValueError(
            tr("batch sizes disagree: {batch_sizes}", batch_sizes=batch_sizes)
        )
    num_keys, num_values = keys.shape[1], values.shape[1]
    if num_keys != num_values:
        raise ValueError(
            tr(
                "keys and values must pair up: {num_keys} keys but "
                "{num_values} values",
                num_keys=num_keys,
                num_values=num_values,
            )
        )
    expected = {"queries": query_size, "keys": key_size, "values": value_size}
    for name, size in expected.items():
        got = named[name].shape[-1]
        if size is not None and got != size:
            raise ValueError(
                tr(
                    "{name} must have {size} features, got {got}",
                    name=name,
                    size=size,
                    got=got,
                )
            )


def _check_dot_product_inputs(queries, keys, values):
    """Raise ValueError/TypeError unless the inputs suit a dot product.

    As _check_attention_inputs, and queries have as many features as the
    keys, since a dot product pairs them. First used in notebook 03.
    """
    _check_attention_inputs(queries, keys, values)
    d, got = keys.shape[-1], queries.shape[-1]
    if got != d:
        raise ValueError(
            tr(
                "queries must have as many features as the keys ({d}), got "
                "{got}",
                d=d,
                got=got,
            )
        )


def _check_num_heads(num_hiddens, num_heads):
    """Raise ValueError unless num_heads heads split num_hiddens evenly.

    First used in notebook 04.
    """
    if num_heads < 1 or num_hiddens % num_heads != 0:
        raise ValueError(
            tr(
                "num_hiddens ({num_hiddens}) must be divisible by num_heads "
                "({num_heads})",
                num_hiddens=num_hiddens,
                num_heads=num_heads,
            )
        )
