"""d2l 0.17.6's PyTorch module and the source's decoder, as references.

d2l is installed with --no-deps: its pinned dependencies are too old for
this environment, and the module imports torchvision at import time for its
image data sets, which are never used here.
"""

import importlib
import sys
import types

import torch
from torch import nn


def import_d2l():
    """Return the `d2l.torch` module."""
    try:
        import torchvision  # noqa: F401
    except Exception:
        # No torchvision that can load against this torch (there is no CPU
        # build of it): an empty stand-in module serves d2l's import only.
        stand_in = types.ModuleType("torchvision")
        stand_in.transforms = types.ModuleType("torchvision.transforms")
        sys.modules["torchvision"] = stand_in
        sys.modules["torchvision.transforms"] = stand_in.transforms
    return importlib.import_module("d2l.torch")


def book_seq2seq_decoder_class(d2l):
    """Return the book's Seq2SeqDecoder (d2l 0.17, section 9.7), on d2l.

    The d2l package does not save this class either. It reads the context
    from the state it is handed: right in training, wrong when translating
    step by step (d2l-ai/d2l-en#2134), which the tests show.
    """

    class Seq2SeqDecoder(d2l.Decoder):
        def __init__(
            self, vocab_size, embed_size, num_hiddens, num_layers, dropout=0
        ):
            super().__init__()
            self.embedding = nn.Embedding(vocab_size, embed_size)
            self.rnn = nn.GRU(
                embed_size + num_hiddens,
                num_hiddens,
                num_layers,
                dropout=dropout,
            )
            self.dense = nn.Linear(num_hiddens, vocab_size)

        def init_state(self, enc_outputs, *args):
            return enc_outputs[1]

        def forward(self, X, state):
            X = self.embedding(X).permute(1, 0, 2)
            context = state[-1].repeat(X.shape[0], 1, 1)
            output, state = self.rnn(torch.cat((X, context), 2), state)
            return self.dense(output).permute(1, 0, 2), state

    return Seq2SeqDecoder


def book_attention_decoder_class(d2l):
    """Return the source's PyTorch Seq2SeqAttentionDecoder, built on d2l.

    The Bahdanau chapter defines this class in its text only (it is not in
    the d2l package), so the reference is written out here once.
    """

    class Seq2SeqAttentionDecoder(d2l.Decoder):
        def __init__(
            self, vocab_size, embed_size, num_hiddens, num_layers, dropout=0
        ):
            super().__init__()
            self.attention = d2l.AdditiveAttention(
                num_hiddens, num_hiddens, num_hiddens, dropout
            )
            self.embedding = nn.Embedding(vocab_size, embed_size)
            self.rnn = nn.GRU(
                embed_size + num_hiddens,
                num_hiddens,
                num_layers,
                dropout=dropout,
            )
            self.dense = nn.Linear(num_hiddens, vocab_size)

        def init_state(self, enc_outputs, enc_valid_lens, *args):
            outputs, hidden_state = enc_outputs
            return (outputs.permute(1, 0, 2), hidden_state, enc_valid_lens)

        def forward(self, X, state):
            enc_outputs, hidden_state, enc_valid_lens = state
            X = self.embedding(X).permute(1, 0, 2)
            outputs, self._attention_weights = [], []
            for x in X:
                query = torch.unsqueeze(hidden_state[-1], dim=1)
                context = self.attention(
                    query, enc_outputs, enc_outputs, enc_valid_lens
                )
                x = torch.cat((context, torch.unsqueeze(x, dim=1)), dim=-1)
                out, hidden_state = self.rnn(x.permute(1, 0, 2), hidden_state)
                outputs.append(out)
                self._attention_weights.append(
                    self.attention.attention_weights
                )
            outputs = self.dense(torch.cat(outputs, dim=0))
            return outputs.permute(1, 0, 2), [
                enc_outputs,
                hidden_state,
                enc_valid_lens,
            ]

        @property
        def attention_weights(self):
            return self._attention_weights

    return Seq2SeqAttentionDecoder
