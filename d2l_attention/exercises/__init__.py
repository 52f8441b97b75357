"""The checks of the notebooks' exercises and fill-ins, and their quizzes,
written by hand.

A check cell calls one with the student's answer,
``exercises.check_softmax_then_pad(softmax_then_pad)``, and shows ✔ or a
hint in the notebook's language (``use_language``). One module per
notebook, on a small shared kit (``kit``). The checks hold the expected
answers and ship with the handout: they are for practice, not grading.
"""

from .additive_attention import (
    check_pair_sums,
    check_permuted_output,
    check_random_keys,
    quiz_identical_keys,
)
from .attention_comparison import check_score_of_counts
from .bahdanau_attention import (
    check_context_by_hand,
    check_lstm_query,
    check_precomputed_keys,
)
from .masked_softmax import (
    check_mask,
    check_score_gradient,
    check_softmax_then_pad,
)
from .multihead_attention import check_head_weights
from .scaled_dot_product_attention import check_bilinear_attention
from .seq2seq import (
    check_bridged_decoder,
    check_free_running_decoder,
    check_unmasked_loss,
)

__all__ = [
    "check_mask",
    "check_softmax_then_pad",
    "check_score_gradient",
    "check_pair_sums",
    "quiz_identical_keys",
    "check_random_keys",
    "check_permuted_output",
    "check_bilinear_attention",
    "check_head_weights",
    "check_unmasked_loss",
    "check_bridged_decoder",
    "check_free_running_decoder",
    "check_lstm_query",
    "check_context_by_hand",
    "check_precomputed_keys",
    "check_score_of_counts",
]
