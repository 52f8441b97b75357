"""Notebook 05: data pipeline, BLEU, loss, decoder against d2l 0.17.6."""

import math

import pytest
import torch
from torch import nn

from d2l_attention import (
    BatchIterator,
    EncoderDecoder,
    MaskedSoftmaxCELoss,
    Seq2SeqAttentionDecoder,
    Seq2SeqDecoder,
    Seq2SeqEncoder,
    Vocab,
    bleu,
    find_data_file,
    grad_clipping,
    load_data_nmt,
    predict_seq2seq,
    preprocess_nmt,
    tokenize_nmt,
    train_seq2seq,
    truncate_pad,
)

# tools/ is on the path through conftest.py
from d2l_reference import book_attention_decoder_class

CORPUS = (
    "Go.\tVa !\n"
    "Hi.\tSalut !\n"
    "Go now!\tVas-y maintenant !\n"
    "I lost.\tJ'ai perdu.\n"
    "Go.\tBouge !\n"
)


@pytest.fixture
def data_dir(tmp_path):
    """A data folder holding a five-pair corpus."""
    (tmp_path / "fra-eng").mkdir()
    (tmp_path / "fra-eng" / "fra.txt").write_text(CORPUS, encoding="utf-8")
    return tmp_path


def test_preprocess_matches_d2l(d2l):
    text = "Go.\tVa !\nI'm OK,\u202fthanks!\xa0Really?..\nA. B ."
    assert preprocess_nmt(text) == d2l.preprocess_nmt(text)


def test_tokenize_takes_exactly_num_examples(data_dir):
    text = preprocess_nmt(CORPUS)
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
    assert ours[["a", "zzz"]] == [4, 0] and ours.to_tokens([4, 5]) == [
        "a",
        "b",
    ]


def test_truncate_pad():
    assert truncate_pad([1, 2], 4, 0) == [1, 2, 0, 0]
    assert truncate_pad([1, 2, 3, 4, 5], 4, 0) == [1, 2, 3, 4]


def test_load_data_nmt_tokens_padding_valid_lengths(data_dir):
    data_iter, src_vocab, tgt_vocab = load_data_nmt(
        batch_size=2, num_steps=4, num_examples=4, data_dir=data_dir
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
    X, X_valid_len, Y, Y_valid_len = data_iter.tensors
    eos, pad = src_vocab["<eos>"], src_vocab["<pad>"]
    assert X[0].tolist() == [src_vocab["go"], src_vocab["."], eos, pad]
    assert X[2].tolist() == [src_vocab["go"], 0, 0, eos]  # now, ! -> <unk>
    assert X_valid_len.tolist() == [3, 3, 4, 4]
    assert Y_valid_len.tolist() == [3, 3, 4, 4]  # "j'ai perdu ." + <eos>
    assert len(data_iter) == 2


def test_missing_corpus_says_run_make_data(tmp_path):
    with pytest.raises(FileNotFoundError, match="make data"):
        find_data_file(tmp_path)


def test_batch_iterator_covers_every_row_once():
    rows = torch.arange(10)
    batches = list(BatchIterator((rows, rows * 2), batch_size=4))
    assert [len(b[0]) for b in batches] == [4, 4, 2]
    seen = torch.cat([b[0] for b in batches])
    assert sorted(seen.tolist()) == list(range(10))
    assert all(torch.equal(b[1], b[0] * 2) for b in batches)


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


@pytest.fixture
def tiny_model(data_dir):
    """A tiny attention model trained briefly on the five-pair corpus."""
    torch.manual_seed(0)
    data_iter, src_vocab, tgt_vocab = load_data_nmt(
        batch_size=2, num_steps=5, num_examples=5, data_dir=data_dir
    )
    net = EncoderDecoder(
        Seq2SeqEncoder(len(src_vocab), 8, 16, 1),
        Seq2SeqAttentionDecoder(len(tgt_vocab), 8, 16, 1),
    )
    threads = torch.get_num_threads()
    losses = train_seq2seq(
        net,
        data_iter,
        0.05,
        30,
        tgt_vocab,
        "cpu",
        plot=False,
        progress=False,
        num_threads=1,
    )
    assert torch.get_num_threads() == threads  # restored
    return net, src_vocab, tgt_vocab, losses


def test_training_lowers_the_loss(tiny_model):
    losses = tiny_model[3]
    assert len(losses) == 30 and losses[-1] < losses[0] / 2


def test_predict_with_unknown_words_and_empty_input(tiny_model):
    net, src_vocab, tgt_vocab, _ = tiny_model
    device = torch.device("cpu")
    translation, weights = predict_seq2seq(
        net, "Go zebra!", src_vocab, tgt_vocab, 5, device, True
    )
    assert isinstance(translation, str) and len(weights) >= 1
    # "zebra" and "!" are unknown: they read like any other <unk>
    same, _ = predict_seq2seq(
        net, "go xylophone !", src_vocab, tgt_vocab, 5, device
    )
    assert same == translation
    # one query; 4 keys: go, <unk>, <unk>, <eos> (packed: no padding)
    assert weights[0][0].shape == (1, 1, 4)
    assert predict_seq2seq(net, "", src_vocab, tgt_vocab, 5, device, True) == (
        "",
        [],
    )
    assert predict_seq2seq(net, "  ", src_vocab, tgt_vocab, 5, device) == (
        "",
        [],
    )


def test_plain_seq2seq_decoder_shapes():
    encoder = Seq2SeqEncoder(10, 8, 16, 2).eval()
    decoder = Seq2SeqDecoder(10, 8, 16, 2).eval()
    X = torch.zeros((4, 7), dtype=torch.long)
    output, state = decoder(X, decoder.init_state(encoder(X)))
    assert output.shape == (4, 7, 10) and state.shape == (2, 4, 16)


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
