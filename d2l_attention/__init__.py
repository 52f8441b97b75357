# generated from the notebooks' #@save cells, do not edit
"""Helpers saved from the attention notebooks."""

from .masked_softmax import (
    try_gpu,
    sequence_mask,
    check_valid_lens,
    masked_softmax,
    show_heatmaps,
)
from .additive_attention import (
    check_attention_inputs,
    AdditiveAttention,
)
from .scaled_dot_product_attention import (
    DotProductAttention,
)
from .multihead_attention import (
    transpose_qkv,
    transpose_output,
    check_multihead_inputs,
    MultiHeadAttention,
    fused_attention,
)

__all__ = [
    "try_gpu",
    "sequence_mask",
    "check_valid_lens",
    "masked_softmax",
    "show_heatmaps",
    "check_attention_inputs",
    "AdditiveAttention",
    "DotProductAttention",
    "transpose_qkv",
    "transpose_output",
    "check_multihead_inputs",
    "MultiHeadAttention",
    "fused_attention",
]
