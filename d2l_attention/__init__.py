# generated from the notebooks' #@save cells, do not edit
"""Helpers saved from the attention notebooks.

Each name is imported from its module when first used: importing
the models does not import the plotting and progress-bar modules.
"""

import lazy_loader

# the subpackages, written by hand: the exercises' checks
SUBPACKAGES = [
    "exercises",
]
__getattr__, __dir__, __all__ = lazy_loader.attach(
    __name__,
    submodules=SUBPACKAGES,
    submod_attrs={
        "device": [
            "try_gpu",
        ],
        "plotting": [
            "NumberFormatter",
            "localize_figure",
            "_localize_axes",
            "show_heatmaps",
            "draw_pooling_diagram",
            "draw_attention_pooling",
            "LossCurve",
        ],
        "masking": [
            "valid_lens_to_mask",
            "masked_softmax",
            "sequence_mask",
        ],
        "additive_attention": [
            "AdditiveAttention",
        ],
        "scaled_dot_product_attention": [
            "DotProductAttention",
        ],
        "multihead_attention": [
            "transpose_qkv",
            "transpose_output",
            "MultiHeadAttention",
            "fused_attention",
            "FusedDotProductAttention",
            "FusedMultiHeadAttention",
            "to_torch_multihead",
        ],
        "nmt_data": [
            "find_data_file",
            "_check_corpus",
            "read_data_nmt",
            "preprocess_nmt",
            "tokenize_nmt",
            "Vocab",
            "truncate_pad",
            "build_array_nmt",
            "load_array",
            "load_data_nmt",
        ],
        "encoder_decoder": [
            "Encoder",
            "Decoder",
            "EncoderDecoder",
            "run_to_valid_length",
            "Seq2SeqEncoder",
            "Seq2SeqDecoder",
        ],
        "loss": [
            "MaskedSoftmaxCELoss",
        ],
        "training": [
            "grad_clipping",
            "xavier_init_weights",
            "train_epoch_seq2seq",
            "train_seq2seq",
        ],
        "translation": [
            "encode_source",
            "predict_seq2seq",
            "bleu",
        ],
        "bahdanau_attention": [
            "AttentionDecoder",
            "Seq2SeqAttentionDecoder",
        ],
        "language": [
            "use_language",
            "tr",
            "number",
            "written",
        ],
        "checks": [
            "_check_scores",
            "_check_valid_lens",
            "_check_valid_lens_values",
            "_check_attention_inputs",
            "_check_dot_product_inputs",
            "_check_num_heads",
        ],
    },
)
# a private helper and a subpackage import on first use too, not listed
__all__ = [n for n in __all__ if n[0] != "_" and n not in SUBPACKAGES]
