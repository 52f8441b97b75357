# generated, do not edit: the #@save cells of
# notebooks/05_seq2seq.ipynb

import torch
from torch import nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence

__all__ = [
    "Encoder",
    "Decoder",
    "EncoderDecoder",
    "run_to_valid_length",
    "Seq2SeqEncoder",
    "Seq2SeqDecoder",
]


class Encoder(nn.Module):
    """The base encoder interface. Defined in notebook 05."""

    def forward(self, X, *args):
        raise NotImplementedError


class Decoder(nn.Module):
    """The base decoder interface. Defined in notebook 05."""

    def init_state(self, enc_outputs, *args):
        raise NotImplementedError

    def forward(self, X, state):
        raise NotImplementedError


class EncoderDecoder(nn.Module):
    """An encoder and a decoder trained together. Defined in notebook 05."""

    def __init__(self, encoder, decoder, **kwargs):
        super().__init__(**kwargs)
        self.encoder, self.decoder = encoder, decoder

    def forward(self, enc_X, dec_X, *args):
        enc_outputs = self.encoder(enc_X, *args)
        dec_state = self.decoder.init_state(enc_outputs, *args)
        return self.decoder(dec_X, dec_state)


def run_to_valid_length(rnn, X, valid_len):
    """Run rnn over each sequence of X up to its valid length (packing).

    X: (num_steps, batch_size, features). Return the outputs, (longest
    valid length, batch_size, num_hiddens), zero past each sequence's end,
    and the state after each sequence's last valid step (see the optional
    part). Defined in notebook 05.
    """
    packed = pack_padded_sequence(
        X,
        valid_len.cpu(),  # lengths on the CPU
        enforce_sorted=False,
    )
    outputs, state = rnn(packed)
    return pad_packed_sequence(outputs)[0], state


class Seq2SeqEncoder(Encoder):
    """A multilayer GRU encoder; returns (outputs, final states).

    Defined in notebook 05.
    """

    def __init__(
        self,
        vocab_size,
        embed_size,
        num_hiddens,
        num_layers,
        dropout=0,
        **kwargs,
    ):
        super().__init__(**kwargs)
        self.embedding = nn.Embedding(vocab_size, embed_size)
        self.rnn = nn.GRU(embed_size, num_hiddens, num_layers, dropout=dropout)

    def forward(self, X, valid_len=None, *args):
        # (batch_size, num_steps) -> (num_steps, batch_size, embed_size);
        # transposing the indices first gives a contiguous tensor
        X = self.embedding(X.t())
        # outputs: (steps, batch_size, num_hiddens), steps = num_steps, or
        # the longest valid length when valid_len is given;
        # state: (num_layers, batch_size, num_hiddens)
        if valid_len is None:
            return self.rnn(X)
        # stop at each sentence's <eos> (collapsed cell above): fewer
        # output steps when every sentence is shorter than num_steps
        return run_to_valid_length(self.rnn, X, valid_len)


class Seq2SeqDecoder(Decoder):
    """The GRU decoder without attention: a fixed context at every step.

    Defined in notebook 05.
    """

    def __init__(
        self,
        vocab_size,
        embed_size,
        num_hiddens,
        num_layers,
        dropout=0,
        **kwargs,
    ):
        super().__init__(**kwargs)
        self.embedding = nn.Embedding(vocab_size, embed_size)
        self.rnn = nn.GRU(
            embed_size + num_hiddens, num_hiddens, num_layers, dropout=dropout
        )
        self.dense = nn.Linear(num_hiddens, vocab_size)

    def init_state(self, enc_outputs, *args):
        hidden = enc_outputs[1]  # (num_layers, batch_size, num_hiddens)
        # the context: the encoder's top-layer final state, kept fixed;
        # (batch_size, num_hiddens)
        return hidden, hidden[-1]

    def forward(self, X, state):
        hidden, context = state
        # (batch_size, num_steps) -> (num_steps, batch_size, embed_size)
        X = self.embedding(X).permute(1, 0, 2)
        # the same context at every step: (num_steps, batch_size,
        # num_hiddens)
        repeated = context.expand(X.shape[0], -1, -1)
        output, hidden = self.rnn(torch.cat((X, repeated), dim=2), hidden)
        # (num_steps, batch_size, num_hiddens)
        # -> (batch_size, num_steps, vocab_size)
        return self.dense(output).permute(1, 0, 2), (hidden, context)
