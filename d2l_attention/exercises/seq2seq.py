"""The checks of the exercises of notebook 05:
notebooks/05_seq2seq.ipynb."""

import torch
from torch import nn
from torch.nn import functional as F

from ..encoder_decoder import Seq2SeqDecoder, Seq2SeqEncoder
from ..loss import MaskedSoftmaxCELoss
from .kit import call_answer, not_yet, right, shape_hint

__all__ = [
    "check_unmasked_loss",
    "check_bridged_decoder",
    "check_free_running_decoder",
]


def check_unmasked_loss(UnmaskedCELoss):
    """Check exercise 05 2: the loss with every position counted."""
    generator = torch.Generator().manual_seed(0)
    pred = torch.randn(3, 5, 7, generator=generator)
    label = torch.randint(0, 7, (3, 5), generator=generator)
    valid_len = torch.tensor([2, 4, 1])  # none is the 5 steps
    loss, hint = call_answer(UnmaskedCELoss)
    if hint:
        return hint
    out, hint = call_answer(loss, pred, label, valid_len)
    hint = hint or shape_hint(out, (3,))
    if hint:
        return hint
    out = out.detach().float()
    if torch.allclose(out, MaskedSoftmaxCELoss()(pred, label, valid_len)):
        return not_yet(
            "this is the masked loss: count every position, whatever "
            "valid_len says"
        )
    every = F.cross_entropy(pred.permute(0, 2, 1), label, reduction="none")
    if not torch.allclose(out, every.mean(dim=1)):
        return not_yet(
            "each example's loss must be its cross-entropy summed over all "
            "the positions and divided by their number, as "
            "MaskedSoftmaxCELoss divides by num_steps"
        )
    return right("every position counted, padding included")


def _decoder_parts(decoder_class, *sizes):
    """Return a small encoder, decoder_class(11, 8, 12, 2, *sizes), a batch of
    4 sources of 7 tokens and its encoding, or a hint."""
    with torch.random.fork_rng():  # leaves the notebook's random state
        torch.manual_seed(0)
        encoder = Seq2SeqEncoder(
            10, 8, 16 if sizes else 12, 3 if sizes else 2
        ).eval()
        decoder, hint = call_answer(decoder_class, 11, 8, 12, 2, *sizes)
        X = torch.randint(1, 10, (4, 7))
    if hint:
        return None, hint
    if not isinstance(decoder, nn.Module):
        kind = type(decoder).__name__
        return None, not_yet(
            "the answer must be a decoder class, an nn.Module; calling it "
            "gave {kind}",
            kind=kind,
        )
    decoder.eval()
    with torch.no_grad():
        return (encoder, decoder, X, encoder(X)), None


def _source_hint(decoder, encoder, X, state):
    """Return a hint unless a new source for example 0 changes its state,
    hidden and context, and no other example's."""
    X_new = X.clone()
    X_new[0] = X[0].flip(0)  # another sentence for example 0 only
    new = decoder.init_state(encoder(X_new), torch.full((4,), 7))
    if torch.allclose(new[0][:, 0], state[0][:, 0]):
        return not_yet(
            "the state does not change with the source: compute it from the "
            "encoder's final state, enc_outputs[1]"
        )
    if not torch.allclose(new[0][:, 1:], state[0][:, 1:]):
        return not_yet(
            "a new source for one example changed the state of others: keep "
            "each example in its own column of the batch (from (batch_size, "
            "num_layers * num_hiddens) to (num_layers, batch_size, "
            "num_hiddens) needs a permute, not a reshape alone)"
        )
    if torch.allclose(new[1][0], state[1][0]):
        return not_yet(
            "the context does not change with the source: take the top layer "
            "of the new state, hidden[-1]"
        )
    return None


def check_bridged_decoder(BridgedSeq2SeqDecoder):
    """Check exercise 05 3: the decoder's state from a wider, deeper
    encoder."""
    parts, hint = _decoder_parts(BridgedSeq2SeqDecoder, 16)
    if hint:
        return hint
    encoder, decoder, X, encoded = parts
    with torch.no_grad():
        state, hint = call_answer(
            decoder.init_state, encoded, torch.full((4,), 7)
        )
        if hint:
            return hint
        if not isinstance(state, (tuple, list)) or len(state) != 2:
            return not_yet(
                "init_state must return (hidden, context), as "
                "Seq2SeqDecoder.init_state does"
            )
        hint = shape_hint(state[0], (2, 4, 12)) or shape_hint(
            state[1], (4, 12)
        )
        if hint:
            return hint
        hint = _source_hint(decoder, encoder, X, state)
        if hint:
            return hint
        out, hint = call_answer(decoder, X, state)
    if hint:
        return hint
    return shape_hint(out[0], (4, 7, 11)) or right(
        "a decoder of 2 layers of 12 units starts from a 3-layer encoder of "
        "16 units, and its state depends on the source"
    )


def check_free_running_decoder(FreeRunningDecoder):
    """Check exercise 05 4: the decoder reads its own previous token."""
    parts, hint = _decoder_parts(FreeRunningDecoder)
    if hint:
        return hint
    _, decoder, X, encoded = parts
    with torch.no_grad():
        state = decoder.init_state(encoded)
        result, hint = call_answer(decoder, X, state)
        if hint:
            return hint
        if not isinstance(result, (tuple, list)) or len(result) != 2:
            return not_yet(
                "forward must return (outputs, state), as "
                "Seq2SeqDecoder.forward does"
            )
        outputs = result[0]
        hint = shape_hint(outputs, (4, 7, 11))
        if hint:
            return hint
        outputs = outputs.float()
        forced = Seq2SeqDecoder.forward(decoder, X, state)[0]
        dec_X, expected = X[:, :1], []
        for _ in range(7):  # step by step, each step reading the last
            Y_hat, state = Seq2SeqDecoder.forward(decoder, dec_X, state)
            expected.append(Y_hat)
            dec_X = Y_hat.argmax(dim=2)
    if torch.allclose(outputs, forced, atol=1e-5):
        return not_yet(
            "the decoder read the reference tokens (teacher forcing): after "
            "<bos>, feed it its own most likely token, Y_hat.argmax(dim=2)"
        )
    if not torch.allclose(outputs, torch.cat(expected, dim=1), atol=1e-5):
        return not_yet(
            "the outputs are not those of a decoder that reads X's first "
            "column, then at each step its own most likely token"
        )
    final = result[1][0]  # the hidden state the answer returns
    if not (
        torch.is_tensor(final)
        and final.shape == state[0].shape
        and torch.allclose(final.float(), state[0], atol=1e-5)
    ):
        return not_yet(
            "return the decoder's state after the last step, not the one it "
            "was given"
        )
    return right(
        "after <bos>, the decoder reads its own most likely token at every "
        "step"
    )
