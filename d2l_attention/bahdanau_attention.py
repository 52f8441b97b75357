# generated from notebooks/06_bahdanau_attention.ipynb, do not edit

import torch
from torch import nn
from .additive_attention import AdditiveAttention
from .seq2seq import Decoder
from .masked_softmax import valid_lens_to_mask

__all__ = [
    "AttentionDecoder",
    "attend_to",
    "Seq2SeqAttentionDecoder",
]


class AttentionDecoder(Decoder):
    """The base interface of decoders with attention.

    Defined in notebook 06.
    """

    @property
    def attention_weights(self):
        raise NotImplementedError


def attend_to(attention, keys, values, valid_lens):
    """Return attend(queries) = attention(queries, keys, values, valid_lens).

    For AdditiveAttention the keys' projection and the mask are computed
    once, here. Defined in notebook 06.
    """
    if not isinstance(attention, AdditiveAttention):
        return lambda queries: attention(queries, keys, values, valid_lens)
    # W_k k, once per sentence: (batch_size, no. of keys, num_hiddens)
    projected_keys = attention.W_k(keys)
    keep = None if valid_lens is None else valid_lens_to_mask(
        valid_lens.to(keys.device), keys.shape[1])  # (batch_size, 1, keys)

    def attend(queries):
        # (batch_size, queries, 1, num_hiddens) + (batch_size, 1, keys,
        # num_hiddens) -> (batch_size, queries, keys, num_hiddens)
        features = torch.tanh(attention.W_q(queries).unsqueeze(2)
                              + projected_keys.unsqueeze(1))
        scores = attention.w_v(features).squeeze(-1)  # (batch, queries, keys)
        if keep is not None:  # padding gets exactly zero weight
            scores = scores.masked_fill(~keep, torch.finfo(scores.dtype).min)
        weights = torch.softmax(scores, dim=-1)
        if keep is not None:  # a row without valid keys: zeros, not uniform
            weights = weights.masked_fill(~keep, 0.0)
        attention.attention_weights = weights
        # (batch, queries, keys) @ (batch, keys, value size)
        return torch.bmm(attention.dropout(weights), values)

    return attend


class Seq2SeqAttentionDecoder(AttentionDecoder):
    """A GRU decoder with Bahdanau (additive) attention.

    Defined in notebook 06.
    """

    def __init__(self, vocab_size, embed_size, num_hiddens, num_layers,
                 dropout=0, **kwargs):
        super().__init__(**kwargs)
        self.attention = AdditiveAttention(num_hiddens, num_hiddens,
                                           num_hiddens, dropout)
        self.embedding = nn.Embedding(vocab_size, embed_size)
        self.rnn = nn.GRU(embed_size + num_hiddens, num_hiddens, num_layers,
                          dropout=dropout)
        self.dense = nn.Linear(num_hiddens, vocab_size)

    def init_state(self, enc_outputs, enc_valid_lens, *args):
        outputs, hidden_state = enc_outputs
        # (num_steps, batch_size, num_hiddens)
        # -> (batch_size, num_steps, num_hiddens)
        return [outputs.permute(1, 0, 2), hidden_state, enc_valid_lens]

    def forward(self, X, state):
        enc_outputs, hidden_state, enc_valid_lens = state
        X = self.embedding(X).permute(1, 0, 2)  # (steps, batch, embed_size)
        attend = attend_to(self.attention, enc_outputs, enc_outputs,
                           enc_valid_lens)  # keys = values = h_1 .. h_T
        outputs, self._attention_weights = [], []
        for x in X:  # x: embedding of y_{t'-1}, (batch_size, embed_size)
            query = hidden_state[-1].unsqueeze(1)  # s_{t'-1}: (batch, 1, hid)
            context = attend(query)  # c_{t'}: (batch_size, 1, num_hiddens)
            self._attention_weights.append(self.attention.attention_weights)
            # [c_{t'}; x]: (batch, 1, hid + embed) -> (1, batch, hid + embed)
            x = torch.cat((context, x.unsqueeze(1)), dim=-1).permute(1, 0, 2)
            # s_{t'} = g(y_{t'-1}, c_{t'}, s_{t'-1}) for every layer
            out, hidden_state = self.rnn(x, hidden_state)
            outputs.append(out)  # (1, batch_size, num_hiddens)
        # (steps, batch, num_hiddens) -> (batch, steps, vocab_size)
        outputs = self.dense(torch.cat(outputs, dim=0)).permute(1, 0, 2)
        return outputs, [enc_outputs, hidden_state, enc_valid_lens]

    @property
    def attention_weights(self):
        return self._attention_weights
