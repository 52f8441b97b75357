"""Notebook 05: the seq2seq toolkit against d2l 0.17.6 and by hand."""

import math

import pytest
import torch
from torch import nn

from d2l_attention import (
    EncoderDecoder,
    LossCurve,
    MaskedSoftmaxCELoss,
    Seq2SeqDecoder,
    Seq2SeqEncoder,
    Vocab,
    bleu,
    build_array_nmt,
    encode_source,
    grad_clipping,
    load_array,
    load_data_nmt,
    predict_seq2seq,
    preprocess_nmt,
    read_data_nmt,
    tokenize_nmt,
    train_epoch_seq2seq,
    train_seq2seq,
    truncate_pad,
)
from tests.d2l_reference import book_seq2seq_decoder_class

# ---- data ----------------------------------------------------------------


def test_preprocess_matches_d2l(d2l):
    text = "Go.\tVa !\nI'm OK,\u202fthanks!\xa0Really?..\nA. B ."
    assert preprocess_nmt(text) == d2l.preprocess_nmt(text)
    assert preprocess_nmt("Hi.") == "hi ."


def test_tokenize_takes_exactly_num_examples(corpus):
    text = preprocess_nmt(corpus)
    source, target = tokenize_nmt(text, 3)
    assert source == [["go", "."], ["hi", "."], ["go", "now", "!"]]
    assert target[2] == ["vas-y", "maintenant", "!"]
    assert len(tokenize_nmt(text)[0]) == 5


def test_vocab_matches_d2l(d2l):
    lines = [["a", "b", "a"], ["c", "b", "a"], ["d"]]
    reserved = ["<pad>", "<bos>", "<eos>"]
    ours = Vocab(lines, min_freq=2, reserved_tokens=reserved)
    ref = d2l.Vocab(lines, min_freq=2, reserved_tokens=reserved)
    assert ours.idx_to_token == ref.idx_to_token
    assert ours.idx_to_token[:4] == ["<unk>", *reserved]
    assert ours[["a", "zzz"]] == [4, 0]
    assert ours.to_tokens([4, 5]) == ["a", "b"] and len(ours) == 6


def test_truncate_pad():
    assert truncate_pad([1, 2], 4, 0) == [1, 2, 0, 0]
    assert truncate_pad([1, 2, 3, 4, 5], 4, 0) == [1, 2, 3, 4]
    assert truncate_pad([1, 2, 3, 4], 4, 0) == [1, 2, 3, 4]


def test_build_array_appends_eos_and_counts_valid_tokens():
    vocab = Vocab([["a", "b"]], reserved_tokens=["<pad>", "<bos>", "<eos>"])
    array, valid = build_array_nmt([["a"], ["a", "b", "a", "b"]], vocab, 3)
    eos, pad = vocab["<eos>"], vocab["<pad>"]
    assert array.tolist() == [
        [vocab["a"], eos, pad],
        [vocab["a"], vocab["b"], vocab["a"]],  # cut: no room for <eos>
    ]
    assert valid.tolist() == [2, 3]


def test_d2l_keeps_one_pair_more_than_asked(d2l):
    """Notebook 05 says so: d2l 0.17's tokenize_nmt reads 601 pairs of the
    excerpt when asked for 600, ours 600."""
    text = preprocess_nmt(read_data_nmt())
    assert len(tokenize_nmt(text, 600)[0]) == 600
    assert len(d2l.tokenize_nmt(text, 600)[0]) == 601
    assert len(d2l.tokenize_nmt(text, 599)[0]) == 600


def test_load_data_nmt_tokens_padding_valid_lengths(five_pairs):
    data_iter, src_vocab, tgt_vocab = load_data_nmt(
        batch_size=2, num_steps=4, num_examples=4
    )
    # only "go" and "." occur twice in the first four English sentences
    assert src_vocab.idx_to_token == [
        "<unk>",
        "<pad>",
        "<bos>",
        "<eos>",
        ".",
        "go",
    ]
    X, X_valid_len, Y, Y_valid_len = data_iter.dataset.tensors
    eos, pad = src_vocab["<eos>"], src_vocab["<pad>"]
    assert X[0].tolist() == [src_vocab["go"], src_vocab["."], eos, pad]
    assert X[2].tolist() == [src_vocab["go"], 0, 0, eos]  # now, ! -> <unk>
    assert X_valid_len.tolist() == [3, 3, 4, 4]
    assert Y_valid_len.tolist() == [3, 3, 4, 4]  # "j'ai perdu ." + <eos>
    assert len(data_iter) == 2
    batches = list(data_iter)
    assert [len(batch[0]) for batch in batches] == [2, 2]


def test_load_array_covers_every_row_once():
    rows = torch.arange(10)
    batches = list(load_array((rows, rows * 2), batch_size=4))
    assert [len(b[0]) for b in batches] == [4, 4, 2]
    seen = torch.cat([b[0] for b in batches])
    assert sorted(seen.tolist()) == list(range(10))
    assert all(torch.equal(b[1], b[0] * 2) for b in batches)
    in_order = load_array((rows,), batch_size=4, is_train=False)
    assert torch.equal(torch.cat([b[0] for b in in_order]), rows)


def test_load_array_reshuffles_every_pass():
    torch.manual_seed(0)
    rows = torch.arange(50)
    data_iter = load_array((rows,), batch_size=50)
    first, second = next(iter(data_iter))[0], next(iter(data_iter))[0]
    assert not torch.equal(first, second)


# ---- BLEU ----------------------------------------------------------------


@pytest.mark.parametrize(
    "pred, label",
    [
        ("il est riche .", "il est calme ."),
        ("je suis chez moi .", "je suis chez moi ."),
        ("je je je", "je suis"),
        ("va !", "je suis chez moi ."),
    ],
)
def test_bleu_matches_d2l(d2l, pred, label):
    assert math.isclose(bleu(pred, label, 2), d2l.bleu(pred, label, 2))


def test_bleu_hand_computed():
    # p1 = 3/4, p2 = 1/3 (only "il est"), equal lengths
    assert math.isclose(
        bleu("il est riche .", "il est calme .", 2),
        (3 / 4) ** 0.5 * (1 / 3) ** 0.25,
    )
    # 2 tokens against 4: brevity penalty exp(1 - 4/2); p1 = 1, p2 = 1
    assert math.isclose(bleu("je suis", "je suis chez moi", 2), math.exp(-1))
    # clipped counts: "je" matches once only
    assert math.isclose(bleu("je je", "je suis", 1), (1 / 2) ** 0.5)


def test_bleu_edge_cases():
    assert bleu("", "va !", 2) == 0.0
    assert bleu("   ", "va !", 4) == 0.0
    # k longer than both sentences: orders without n-grams are skipped
    assert bleu("va !", "va !", 4) == 1.0
    assert 0 < bleu("va", "va !", 3) < 1
    assert bleu("x y", "va !", 2) == 0.0


@pytest.mark.parametrize("pred, k", [("", 2), ("va !", 4)])
def test_d2l_bleu_divides_by_zero_where_ours_does_not(d2l, pred, k):
    # an empty prediction; an order longer than the prediction
    with pytest.raises(ZeroDivisionError):
        d2l.bleu(pred, "va !", k)
    assert 0 <= bleu(pred, "va !", k) <= 1


# ---- loss and clipping ---------------------------------------------------


def test_masked_loss_matches_d2l(d2l):
    torch.manual_seed(0)
    pred, label = torch.randn(3, 4, 10), torch.randint(0, 10, (3, 4))
    valid = torch.tensor([4, 2, 0])
    ref = d2l.MaskedSoftmaxCELoss()(pred, label, valid)
    assert torch.allclose(MaskedSoftmaxCELoss()(pred, label, valid), ref)
    # cut to the longest valid length but averaged over the full 4 steps
    cut = MaskedSoftmaxCELoss()(
        pred[:, :2], label[:, :2], valid.clamp(max=2), num_steps=4
    )
    assert torch.allclose(cut[1:], ref[1:])


def test_masked_loss_ignores_padded_positions():
    torch.manual_seed(0)
    pred, label = torch.randn(2, 5, 7), torch.randint(0, 7, (2, 5))
    valid = torch.tensor([3, 5])
    changed = pred.clone()
    changed[0, 3:] = torch.randn(2, 7) * 100  # past the valid length
    loss = MaskedSoftmaxCELoss()
    assert torch.equal(loss(pred, label, valid), loss(changed, label, valid))
    assert loss(pred, label, valid).shape == (2,)


def test_grad_clipping_matches_d2l(d2l):
    torch.manual_seed(0)
    nets = [nn.Linear(5, 3), nn.Linear(5, 3)]
    nets[1].load_state_dict(nets[0].state_dict())
    for net in nets:
        (net(torch.randn(8, 5)) * 100).sum().backward()
    nets[1].weight.grad.copy_(nets[0].weight.grad)
    nets[1].bias.grad.copy_(nets[0].bias.grad)
    grad_clipping(nets[0], 1)
    d2l.grad_clipping(nets[1], 1)
    assert torch.allclose(nets[0].weight.grad, nets[1].weight.grad)
    norm = torch.cat([p.grad.flatten() for p in nets[0].parameters()]).norm()
    assert math.isclose(norm.item(), 1, rel_tol=1e-5)


def test_grad_clipping_leaves_small_gradients_and_skips_frozen():
    net = nn.Sequential(nn.Linear(3, 2), nn.Linear(2, 1))
    net[0].requires_grad_(False)
    (net(torch.ones(1, 3)) * 1e-3).sum().backward()
    before = [p.grad.clone() for p in net[1].parameters()]
    grad_clipping(net, 10)
    assert all(
        torch.equal(b, p.grad) for b, p in zip(before, net[1].parameters())
    )


# ---- encoder and decoder -------------------------------------------------


def test_encoder_equals_d2l_with_same_weights(d2l):
    torch.manual_seed(0)
    ref = d2l.Seq2SeqEncoder(10, 8, 16, 2).eval()
    ours = Seq2SeqEncoder(10, 8, 16, 2).eval()
    ours.load_state_dict(ref.state_dict())
    X = torch.randint(0, 10, (4, 7))
    (out, state), (out_ref, state_ref) = ours(X), ref(X)
    assert torch.allclose(out, out_ref, atol=1e-6)
    assert torch.allclose(state, state_ref, atol=1e-6)


def test_encoder_packs_each_sentence_to_its_valid_length():
    torch.manual_seed(0)
    encoder = Seq2SeqEncoder(10, 8, 16, 2).eval()
    X = torch.randint(0, 10, (3, 6))
    valid = torch.tensor([2, 6, 4])
    outputs, state = encoder(X, valid)
    assert outputs.shape == (6, 3, 16) and state.shape == (2, 3, 16)
    for i, n in enumerate(valid.tolist()):
        alone_outputs, alone_state = encoder(X[i : i + 1, :n])
        assert torch.allclose(state[:, i], alone_state[:, 0], atol=1e-6)
        assert torch.allclose(outputs[:n, i], alone_outputs[:, 0], atol=1e-6)
        assert (outputs[n:, i] == 0).all()
    # without valid lengths it reads the padding, like the book's encoder
    assert encoder(X)[0].shape == (6, 3, 16)


def test_plain_seq2seq_decoder_shapes():
    encoder = Seq2SeqEncoder(10, 8, 16, 2).eval()
    decoder = Seq2SeqDecoder(10, 8, 16, 2).eval()
    X = torch.zeros((4, 7), dtype=torch.long)
    enc_outputs = encoder(X)
    output, (hidden, context) = decoder(X, decoder.init_state(enc_outputs))
    assert output.shape == (4, 7, 10) and hidden.shape == (2, 4, 16)
    # the context handed back is the encoder's top-layer final state
    assert torch.equal(context, enc_outputs[1][-1])


def step_by_step(decoder, X, state):
    """Outputs of decoder fed one token per call, (batch, steps, vocab)."""
    outputs = []
    for t in range(X.shape[1]):
        output, state = decoder(X[:, t : t + 1], state)
        outputs.append(output)
    return torch.cat(outputs, dim=1), state


@pytest.mark.parametrize("num_layers", [1, 2, 3])
def test_decoding_step_by_step_equals_the_whole_sequence(num_layers):
    torch.manual_seed(num_layers)
    encoder = Seq2SeqEncoder(10, 8, 16, num_layers).eval()
    decoder = Seq2SeqDecoder(12, 8, 16, num_layers).eval()
    X, Y = torch.randint(0, 10, (4, 6)), torch.randint(0, 12, (4, 5))
    valid = torch.tensor([6, 2, 4, 1])
    enc_outputs = encoder(X, valid)
    whole, (hidden, _) = decoder(Y, decoder.init_state(enc_outputs, valid))
    steps, (step_hidden, context) = step_by_step(
        decoder, Y, decoder.init_state(enc_outputs, valid)
    )
    assert torch.allclose(steps, whole, atol=1e-6)
    assert torch.allclose(step_hidden, hidden, atol=1e-6)
    assert torch.equal(context, enc_outputs[1][-1])  # never updated


def test_decoder_trains_like_d2l_and_fixes_its_decoding(d2l):
    """Same outputs as d2l's decoder on a whole target (training); d2l's
    step-by-step decoding drifts (d2l-ai/d2l-en#2134), ours does not."""
    torch.manual_seed(0)
    encoder = d2l.Seq2SeqEncoder(10, 8, 16, 2).eval()
    ref = book_seq2seq_decoder_class(d2l)(10, 8, 16, 2).eval()
    ours = Seq2SeqDecoder(10, 8, 16, 2).eval()
    ours.load_state_dict(ref.state_dict())  # same names, same shapes
    X = torch.randint(0, 10, (4, 7))
    enc_outputs = encoder(X)
    out_ref, state_ref = ref(X, ref.init_state(enc_outputs))
    out, (hidden, _) = ours(X, ours.init_state(enc_outputs))
    assert torch.allclose(out, out_ref, atol=1e-5)
    assert torch.allclose(hidden, state_ref, atol=1e-5)
    ref_steps, _ = step_by_step(ref, X, ref.init_state(enc_outputs))
    assert not torch.allclose(ref_steps, out_ref, atol=1e-3)


def test_decoder_gradients_equal_d2l(d2l):
    torch.manual_seed(1)
    ref = book_seq2seq_decoder_class(d2l)(12, 8, 16, 2)
    ours = Seq2SeqDecoder(12, 8, 16, 2)
    ours.load_state_dict(ref.state_dict())
    enc = (torch.randn(6, 3, 16), torch.randn(2, 3, 16))
    X = torch.randint(0, 12, (3, 5))
    for dec in (ref, ours):
        out, _ = dec(X, dec.init_state(enc))
        (out**2).sum().backward()
    grads = dict(ref.named_parameters())
    for name, param in ours.named_parameters():
        assert torch.allclose(param.grad, grads[name].grad, atol=1e-4), name


@pytest.mark.parametrize("part", ["encoder", "decoder"])
def test_between_layer_dropout_acts_in_training_mode_only(part):
    torch.manual_seed(0)
    make = Seq2SeqEncoder if part == "encoder" else Seq2SeqDecoder
    dropped, plain = make(10, 8, 32, 2, dropout=0.5), make(10, 8, 32, 2)
    plain.load_state_dict(dropped.state_dict())
    X = torch.randint(0, 10, (4, 7))
    enc_outputs = (torch.randn(7, 4, 32), torch.randn(2, 4, 32))

    def run(module):
        if part == "encoder":
            return module(X)[0]
        return module(X, module.init_state(enc_outputs))[0]

    dropped.eval()
    reference = run(dropped)
    assert torch.allclose(run(plain.eval()), reference)  # eval: no dropout
    assert torch.equal(run(dropped), reference)  # and deterministic
    dropped.train()
    first, second = run(dropped), run(dropped)
    assert not torch.allclose(first, reference, atol=1e-3)
    assert not torch.allclose(first, second, atol=1e-3)
    # dropout 0 in training mode is the eval output
    assert torch.allclose(run(plain.train()), reference, atol=1e-6)


# ---- training and prediction ---------------------------------------------


@pytest.fixture(scope="module")
def tiny_model(five_pairs):
    """A tiny plain seq2seq model trained briefly on the five pairs."""
    torch.manual_seed(0)
    data_iter, src_vocab, tgt_vocab = load_data_nmt(
        batch_size=2, num_steps=5, num_examples=5
    )
    net = EncoderDecoder(
        Seq2SeqEncoder(len(src_vocab), 8, 16, 2),
        Seq2SeqDecoder(len(tgt_vocab), 8, 16, 2),
    )
    losses = train_seq2seq(
        net, data_iter, 0.05, 30, tgt_vocab, "cpu", plot=False, progress=False
    )
    return net, src_vocab, tgt_vocab, losses


def test_training_lowers_the_loss(tiny_model):
    losses = tiny_model[3]
    assert len(losses) == 30 and all(isinstance(v, float) for v in losses)
    assert losses[-1] < losses[0] / 2


def test_the_curve_shows_the_loss_per_token(five_pairs, monkeypatch):
    """train_seq2seq returns the cross-entropy per target token, the value
    its curve draws, and the book's loss times num_steps."""
    drawn = {"points": [], "reference": None}

    def record_init(self, num_epochs, reference=None, **kwargs):
        drawn["reference"] = reference

    monkeypatch.setattr(LossCurve, "__init__", record_init)
    monkeypatch.setattr(
        LossCurve,
        "add",
        lambda self, epoch, loss: drawn["points"].append((epoch, loss)),
    )
    torch.manual_seed(0)
    data_iter, src_vocab, tgt_vocab = load_data_nmt(
        batch_size=2, num_steps=7, num_examples=5
    )
    net = EncoderDecoder(
        Seq2SeqEncoder(len(src_vocab), 8, 16, 2),
        Seq2SeqDecoder(len(tgt_vocab), 8, 16, 2),
    )
    losses = train_seq2seq(
        net,
        data_iter,
        0.05,
        12,
        tgt_vocab,
        "cpu",
        progress=False,
        reference=("book", 0.25),
    )
    assert [epoch for epoch, _ in drawn["points"]] == [1, 10, 12]
    for epoch, value in drawn["points"]:
        assert value == losses[epoch - 1]
    assert drawn["reference"] == ("book", 0.25)
    # one more epoch with a zero learning rate: the loss the weights give,
    # against the cross-entropy of the valid positions computed directly
    X, X_valid_len, Y, Y_valid_len = data_iter.dataset.tensors
    bos = tgt_vocab["<bos>"]
    dec_input = torch.cat([torch.full((len(Y), 1), bos), Y[:, :-1]], 1)
    net.eval()  # no dropout here: the same outputs in both passes
    total, tokens = train_epoch_seq2seq(
        net,
        data_iter,
        MaskedSoftmaxCELoss(),
        torch.optim.SGD(net.parameters(), lr=0),
        bos,
        "cpu",
    )
    valid = torch.arange(7) < Y_valid_len[:, None]
    with torch.no_grad():
        logits = net(X, dec_input, X_valid_len)[0]
    direct = nn.functional.cross_entropy(
        logits[valid], Y[valid], reduction="sum"
    )
    assert tokens == int(Y_valid_len.sum())
    assert total == pytest.approx(direct.item(), rel=1e-5)


def test_cutting_padding_columns_keeps_the_loss(five_pairs):
    """train_epoch_seq2seq drops the columns past the longest target; the
    cross-entropy it reports equals the book's loss over all num_steps
    columns, times num_steps."""
    torch.manual_seed(0)
    data_iter, src_vocab, tgt_vocab = load_data_nmt(
        batch_size=5, num_steps=9, num_examples=5
    )
    net = EncoderDecoder(
        Seq2SeqEncoder(len(src_vocab), 8, 16, 2),
        Seq2SeqDecoder(len(tgt_vocab), 8, 16, 2),
    )
    X, X_valid_len, Y, Y_valid_len = data_iter.dataset.tensors
    assert Y_valid_len.max() < 9  # there is padding to cut
    bos = tgt_vocab["<bos>"]
    dec_input = torch.cat([torch.full((5, 1), bos), Y[:, :-1]], 1)
    loss = MaskedSoftmaxCELoss()
    full = loss(net(X, dec_input, X_valid_len)[0], Y, Y_valid_len).sum()
    optimizer = torch.optim.SGD(net.parameters(), lr=0)
    total_loss, num_tokens = train_epoch_seq2seq(
        net, data_iter, loss, optimizer, bos, "cpu"
    )
    assert total_loss == pytest.approx(9 * full.item(), abs=1e-4)
    assert num_tokens == int(Y_valid_len.sum())


def test_encode_source_pads_cuts_and_reads_unknown_words(tiny_model):
    _, src_vocab, _, _ = tiny_model
    indices, valid = encode_source("Go zebra!", src_vocab, 6, "cpu")
    eos, pad = src_vocab["<eos>"], src_vocab["<pad>"]
    assert indices.tolist() == [[src_vocab["go"], 0, 0, eos, pad, pad]]
    assert valid.tolist() == [4]
    indices, valid = encode_source("go . go . go .", src_vocab, 4, "cpu")
    assert indices.shape == (1, 4) and valid.tolist() == [4]


def test_predict_with_unknown_words_and_empty_input(tiny_model):
    net, src_vocab, tgt_vocab, _ = tiny_model
    device = torch.device("cpu")
    translation, weights = predict_seq2seq(
        net, "Go zebra!", src_vocab, tgt_vocab, 5, device
    )
    assert isinstance(translation, str) and weights == []
    assert len(translation.split()) <= 5
    # "zebra" and "!" are unknown: they read like any other <unk>
    same, _ = predict_seq2seq(
        net, "go xylophone ?", src_vocab, tgt_vocab, 5, device
    )
    assert same == translation
    for empty in ["", "  "]:
        assert predict_seq2seq(
            net, empty, src_vocab, tgt_vocab, 5, device, True
        ) == ("", [])


def test_predict_learned_the_tiny_corpus(tiny_model):
    net, src_vocab, tgt_vocab, _ = tiny_model
    scores = []
    # "hi ." and "i lost ." have one translation each in the corpus
    for eng, fra in [("hi .", "salut !"), ("i lost .", "j'ai perdu .")]:
        # rare target words are <unk> in the vocabulary, so in the label too
        label = " ".join(tgt_vocab.to_tokens(tgt_vocab[fra.split()]))
        pred, _ = predict_seq2seq(net, eng, src_vocab, tgt_vocab, 5, "cpu")
        scores.append(bleu(pred, label, 2))
    assert sum(scores) / 2 > 0.5


def test_predict_stops_after_num_steps(tiny_model):
    net, src_vocab, tgt_vocab, _ = tiny_model
    for num_steps in (1, 2):
        translation, _ = predict_seq2seq(
            net, "go .", src_vocab, tgt_vocab, num_steps, "cpu"
        )
        assert len(translation.split()) <= num_steps
