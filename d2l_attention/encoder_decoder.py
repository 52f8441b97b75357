# generated, do not edit: the #@save cells of
# notebooks/05_seq2seq.ipynb

import torch
from torch import nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence

__all__ = [
    "Encoder",
    "Decoder",
    "EncoderDecoder",
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


class Seq2SeqEncoder(Encoder):
    """A multilayer GRU encoder; returns (outputs, final states).

    Defined in notebook 05.
    """

    def __init__(self, vocab_size, embed_size, num_hiddens, num_layers,
                 dropout=0, **kwargs):
        super().__init__(**kwargs)
        self.embedding = nn.Embedding(vocab_size, embed_size)
        self.rnn = nn.GRU(embed_size, num_hiddens, num_layers,
                          dropout=dropout)

    def forward(self, X, valid_len=None, *args):
        # (batch_size, num_steps) -> (num_steps, batch_size, embed_size);
        # transposing the indices first gives a contiguous tensor
        X = self.embedding(X.t())
        if valid_len is None:
            # outputs: (num_steps, batch_size, num_hiddens);
            # state: (num_layers, batch_size, num_hiddens)
            return self.rnn(X)
        # read each sentence up to its valid length (lengths on the CPU)
        packed = pack_padded_sequence(X, valid_len.cpu(),
                                      enforce_sorted=False)
        outputs, state = self.rnn(packed)
        # outputs: (longest valid length, batch_size, num_hiddens), zeros
        # past each sentence's end; state: after each sentence's <eos>
        return pad_packed_sequence(outputs)[0], state


class Seq2SeqDecoder(Decoder):
    """The GRU decoder without attention: a fixed context at every step.

    Defined in notebook 05.
    """

    def __init__(self, vocab_size, embed_size, num_hiddens, num_layers,
                 dropout=0, **kwargs):
        super().__init__(**kwargs)
        self.embedding = nn.Embedding(vocab_size, embed_size)
        self.rnn = nn.GRU(embed_size + num_hiddens, num_hiddens, num_layers,
                          dropout=dropout)
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
