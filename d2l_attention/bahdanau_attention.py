# generated, do not edit: the #@save cells of
# notebooks/06_bahdanau_attention.ipynb

import torch
from torch import nn

from .additive_attention import AdditiveAttention
from .encoder_decoder import Decoder

__all__ = [
    "AttentionDecoder",
    "Seq2SeqAttentionDecoder",
]


class AttentionDecoder(Decoder):
    """The base interface of decoders with attention.

    Defined in notebook 06.
    """

    @property
    def attention_weights(self):
        raise NotImplementedError


class Seq2SeqAttentionDecoder(AttentionDecoder):
    """A GRU decoder with Bahdanau (additive) attention.

    Defined in notebook 06.
    """

    def __init__(
        self,
        vocab_size,
        embed_size,
        num_hiddens,
        num_layers,
        dropout=0,
        attention=None,
        **kwargs,
    ):
        super().__init__(**kwargs)
        if attention is None:  # the book's: additive, num_hiddens wide
            attention = AdditiveAttention(
                num_hiddens, num_hiddens, num_hiddens, dropout
            )
        self.attention = attention
        self.embedding = nn.Embedding(vocab_size, embed_size)
        self.rnn = nn.GRU(
            embed_size + num_hiddens, num_hiddens, num_layers, dropout=dropout
        )
        self.dense = nn.Linear(num_hiddens, vocab_size)

    def init_state(self, enc_outputs, enc_valid_lens, *args):
        outputs, hidden_state = enc_outputs
        # (num_steps, batch_size, num_hiddens)
        # -> (batch_size, num_steps, num_hiddens)
        return [outputs.permute(1, 0, 2), hidden_state, enc_valid_lens]

    def forward(self, X, state):
        enc_outputs, hidden_state, enc_valid_lens = state
        # (batch_size, num_steps) -> (num_steps, batch_size, embed_size)
        X = self.embedding(X).permute(1, 0, 2)
        outputs, self._attention_weights = [], []
        for x in X:  # x: embedding of y_{t'-1}, (batch_size, embed_size)
            # s_{t'-1}: (batch_size, 1, num_hiddens)
            query = hidden_state[-1].unsqueeze(1)
            # c_{t'}: keys = values = h_1 .. h_T; (batch_size, 1, num_hiddens)
            context = self.attention(
                query, enc_outputs, enc_outputs, enc_valid_lens
            )
            self._attention_weights.append(self.attention.attention_weights)
            # [c_{t'}; x]: (batch_size, 1, num_hiddens + embed_size)
            # -> (1, batch_size, num_hiddens + embed_size)
            x = torch.cat((context, x.unsqueeze(1)), dim=-1).permute(1, 0, 2)
            # s_{t'} = g(y_{t'-1}, c_{t'}, s_{t'-1}) for every layer
            out, hidden_state = self.rnn(x, hidden_state)
            outputs.append(out)  # (1, batch_size, num_hiddens)
        # (num_steps, batch_size, num_hiddens)
        # -> (batch_size, num_steps, vocab_size)
        outputs = self.dense(torch.cat(outputs, dim=0)).permute(1, 0, 2)
        return outputs, [enc_outputs, hidden_state, enc_valid_lens]

    @property
    def attention_weights(self):
        return self._attention_weights
