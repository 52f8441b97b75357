"""Notebook 06: the Bahdanau decoder against d2l 0.17.6, dropout, swaps."""

import pytest
import torch

from d2l_attention import (
    DotProductAttention,
    EncoderDecoder,
    MaskedSoftmaxCELoss,
    Seq2SeqAttentionDecoder,
    Seq2SeqEncoder,
    load_data_nmt,
    predict_seq2seq,
)

# the d2l reference loader, imported from the project root (pythonpath)
from tests.d2l_reference import book_attention_decoder_class


def book_decoder(d2l, *args):
    """The source's PyTorch Seq2SeqAttentionDecoder, built on d2l."""
    return book_attention_decoder_class(d2l)(*args)


@pytest.mark.parametrize(
    "num_layers, valid", [(2, [7, 3, 1, 5]), (1, [2, 2, 6, 7]), (3, None)]
)
def test_decoder_equals_d2l_with_same_weights(d2l, num_layers, valid):
    torch.manual_seed(0)
    encoder = d2l.Seq2SeqEncoder(10, 8, 16, num_layers).eval()
    dropout = 0.1 if num_layers > 1 else 0.0  # unused in eval mode
    ref = book_decoder(d2l, 10, 8, 16, num_layers, dropout).eval()
    ours = Seq2SeqAttentionDecoder(10, 8, 16, num_layers, dropout).eval()
    ours.load_state_dict(ref.state_dict())  # same names, same shapes
    X = torch.randint(0, 10, (4, 7))
    valid = None if valid is None else torch.tensor(valid)
    enc_outputs = encoder(X)
    out_ref, state_ref = ref(X, ref.init_state(enc_outputs, valid))
    out, state = ours(X, ours.init_state(enc_outputs, valid))
    assert torch.allclose(out, out_ref, atol=1e-5)
    assert len(state) == 3 and torch.equal(state[0], state_ref[0])
    assert torch.allclose(state[1], state_ref[1], atol=1e-5)
    assert torch.allclose(
        torch.stack(ours.attention_weights),
        torch.stack(ref.attention_weights),
        atol=1e-6,
    )


def test_decoder_gradients_equal_d2l(d2l):
    torch.manual_seed(1)
    ref = book_decoder(d2l, 12, 8, 16, 2, 0.0)
    ours = Seq2SeqAttentionDecoder(12, 8, 16, 2, 0.0)
    ours.load_state_dict(ref.state_dict())
    enc = (torch.randn(6, 3, 16), torch.randn(2, 3, 16))
    X, valid = torch.randint(0, 12, (3, 5)), torch.tensor([6, 2, 4])
    for dec in (ref, ours):
        out, _ = dec(X, dec.init_state(enc, valid))
        (out**2).sum().backward()
    grads = dict(ref.named_parameters())
    for name, param in ours.named_parameters():
        assert torch.allclose(param.grad, grads[name].grad, atol=1e-4), name


def test_decoder_state_shapes_of_the_source():
    encoder = Seq2SeqEncoder(10, 8, 16, 2).eval()
    decoder = Seq2SeqAttentionDecoder(10, 8, 16, 2).eval()
    X = torch.zeros((4, 7), dtype=torch.long)
    output, state = decoder(X, decoder.init_state(encoder(X), None))
    assert output.shape == (4, 7, 10) and len(state) == 3
    assert state[0].shape == (4, 7, 16) and state[1].shape == (2, 4, 16)
    assert len(decoder.attention_weights) == 7
    assert decoder.attention_weights[0].shape == (4, 1, 7)


@pytest.mark.parametrize("swap", [False, True])
def test_step_by_step_equals_whole_target(swap):
    torch.manual_seed(2)
    encoder = Seq2SeqEncoder(10, 8, 16, 2).eval()
    attention = DotProductAttention(0.1) if swap else None
    decoder = Seq2SeqAttentionDecoder(10, 8, 16, 2, 0.1, attention=attention)
    decoder.eval()
    X, Y = torch.randint(0, 10, (3, 6)), torch.randint(0, 10, (3, 5))
    valid = torch.tensor([6, 2, 4])
    enc_outputs = encoder(X, valid)
    whole, whole_state = decoder(Y, decoder.init_state(enc_outputs, valid))
    whole_weights = torch.cat(decoder.attention_weights, dim=1)
    state, steps, weights = decoder.init_state(enc_outputs, valid), [], []
    for t in range(Y.shape[1]):
        out, state = decoder(Y[:, t : t + 1], state)
        steps.append(out)
        weights += decoder.attention_weights
    assert torch.allclose(torch.cat(steps, dim=1), whole, atol=1e-5)
    assert torch.allclose(state[1], whole_state[1], atol=1e-5)
    assert torch.allclose(torch.cat(weights, dim=1), whole_weights, atol=1e-6)


def scoring_count(num_hiddens):
    return 2 * num_hiddens * num_hiddens + num_hiddens


def test_scoring_parameters_and_the_dot_product_swap():
    decoder = Seq2SeqAttentionDecoder(10, 8, 32, 2)
    size = sum(p.numel() for p in decoder.parameters())
    assert sum(
        p.numel() for p in decoder.attention.parameters()
    ) == scoring_count(32)
    dot = DotProductAttention(0.1)
    swapped = Seq2SeqAttentionDecoder(10, 8, 32, 2, attention=dot)
    assert swapped.attention is dot
    assert size - sum(p.numel() for p in swapped.parameters()) == (
        scoring_count(32)
    )


def first_context(decoder, enc_outputs, X, valid):
    """Return the context of the first step, read at the GRU's input."""
    seen = []
    hook = decoder.rnn.register_forward_hook(
        lambda module, inputs, output: seen.append(inputs[0])
    )
    decoder(X, decoder.init_state(enc_outputs, valid))
    hook.remove()
    return seen[0][0, :, : decoder.rnn.hidden_size]  # (batch, hiddens)


# one GRU layer with dropout is what this test wants; PyTorch warns of it
@pytest.mark.filterwarnings("ignore:dropout option adds dropout")
def test_attention_dropout_acts_in_training_only_and_is_unbiased():
    torch.manual_seed(4)
    # one layer: the GRU has no between-layer dropout
    decoder = Seq2SeqAttentionDecoder(10, 8, 16, 1, dropout=0.5)
    draws = 4000  # one sentence repeated: each copy draws its own mask
    enc_outputs = (
        torch.randn(6, 1, 16).expand(6, draws, 16),
        torch.randn(1, 1, 16).expand(1, draws, 16),
    )
    X, valid = torch.full((draws, 1), 3), torch.full((draws,), 5)
    decoder.eval()
    expected = first_context(decoder, enc_outputs, X, valid)
    assert torch.equal(expected, expected[:1].expand_as(expected))
    decoder.train()
    contexts = first_context(decoder, enc_outputs, X, valid)
    assert not torch.allclose(contexts[0], contexts[1])  # dropout acts
    # each draw drops weights and scales the rest by 2: unbiased on average
    assert torch.allclose(contexts.mean(0), expected[0], atol=0.06)
    assert (contexts.std(0) > 0.05).any()


def test_gru_dropout_between_layers_acts_in_training_only():
    torch.manual_seed(5)
    decoder = Seq2SeqAttentionDecoder(10, 8, 16, 2, dropout=0.5)
    decoder.attention.dropout.p = 0.0  # only the GRU's dropout is left
    enc_outputs = (torch.randn(6, 3, 16), torch.randn(2, 3, 16))
    X, valid = torch.randint(0, 10, (3, 4)), torch.tensor([6, 3, 5])

    def run():
        return decoder(X, decoder.init_state(enc_outputs, valid))[0]

    decoder.eval()
    assert torch.equal(run(), run())
    decoder.train()
    assert not torch.allclose(run(), run())
    decoder.rnn.dropout = 0.0  # without it, training mode is deterministic
    assert torch.equal(run(), run())


def train_briefly(net, data_iter, tgt_vocab, num_epochs=30):
    """Return the mean loss of each epoch of a short training run."""
    optimizer = torch.optim.Adam(net.parameters(), lr=0.02)
    loss, bos, history = MaskedSoftmaxCELoss(), tgt_vocab["<bos>"], []
    net.train()
    for _ in range(num_epochs):
        total = 0.0
        for X, X_valid_len, Y, Y_valid_len in data_iter:
            dec_input = torch.cat(
                [torch.full((Y.shape[0], 1), bos), Y[:, :-1]], 1
            )
            Y_hat, _ = net(X, dec_input, X_valid_len)
            batch_loss = loss(Y_hat, Y, Y_valid_len).sum()
            optimizer.zero_grad()
            batch_loss.backward()
            optimizer.step()
            total += batch_loss.item()
        history.append(total)
    return history


@pytest.mark.parametrize("attention", ["additive", "dot product"])
def test_training_lowers_the_loss_and_translates(five_pairs, attention):
    torch.manual_seed(0)
    data_iter, src_vocab, tgt_vocab = load_data_nmt(
        batch_size=2, num_steps=5, num_examples=5
    )
    # exercise 2: the constructor takes the attention module
    scoring = DotProductAttention(0.1) if attention == "dot product" else None
    net = EncoderDecoder(
        Seq2SeqEncoder(len(src_vocab), 8, 16, 2, 0.1),
        Seq2SeqAttentionDecoder(
            len(tgt_vocab), 8, 16, 2, 0.1, attention=scoring
        ),
    )
    history = train_briefly(net, data_iter, tgt_vocab)
    assert history[-1] < history[0] / 3
    device = torch.device("cpu")
    translation, weights = predict_seq2seq(
        net, "Go zebra!", src_vocab, tgt_vocab, 5, device, True
    )
    assert isinstance(translation, str) and len(weights) >= 1
    # one query; 4 keys: go, <unk>, <unk>, <eos>; each row sums to one
    assert weights[0][0].shape == (1, 1, 4)
    assert torch.allclose(weights[0][0].sum(), torch.tensor(1.0))
