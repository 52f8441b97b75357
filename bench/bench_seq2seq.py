"""Training time of notebook 05's Bahdanau model against d2l 0.17.6's code.

Both train the source's model (embed 32, hidden 32, 2 layers, dropout 0.1,
batch 64, 10 steps, lr 0.005, 250 epochs, 600 pairs) on the same text:
the reference is d2l's Seq2SeqEncoder, the source's Seq2SeqAttentionDecoder
and d2l.train_seq2seq (fed through a patched d2l.read_data_nmt, since
d2l.load_data_nmt would download); ours is d2l_attention's. Prints wall
times, their ratio, final losses (the book's definition) and the BLEU of
the source's four sentences.

    .venv/bin/python bench/bench_seq2seq.py [--epochs N] [--seeds N]
        [--threads N]
"""

import argparse
import contextlib
import io
import random
import sys
import time
from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # d2l.train_seq2seq draws with d2l.Animator

import torch  # noqa: E402

import d2l_attention as ours  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))

from d2l_reference import (  # noqa: E402
    book_attention_decoder_class,
    import_d2l,
)

ENGS = ["go .", "i lost .", "he's calm .", "i'm home ."]
FRAS = ["va !", "j'ai perdu .", "il est calme .", "je suis chez moi ."]
SIZES = dict(embed_size=32, num_hiddens=32, num_layers=2, dropout=0.1)
BATCH_SIZE, NUM_STEPS, LR, NUM_EXAMPLES = 64, 10, 0.005, 600


def run_reference(d2l, text, num_epochs, device, seed):
    """Train the book's model with d2l; return (seconds, loss, BLEUs)."""
    d2l.read_data_nmt = lambda: text
    # d2l reads one line more than num_examples: 599 gives our 600 pairs
    train_iter, src_vocab, tgt_vocab = d2l.load_data_nmt(
        BATCH_SIZE, NUM_STEPS, NUM_EXAMPLES - 1
    )
    torch.manual_seed(seed)
    random.seed(seed)
    encoder = d2l.Seq2SeqEncoder(len(src_vocab), **SIZES)
    decoder = book_attention_decoder_class(d2l)(len(tgt_vocab), **SIZES)
    net = d2l.EncoderDecoder(encoder, decoder)
    printed = io.StringIO()
    start = time.perf_counter()
    with contextlib.redirect_stdout(printed):
        d2l.train_seq2seq(net, train_iter, LR, num_epochs, tgt_vocab, device)
    seconds = time.perf_counter() - start
    loss = float(printed.getvalue().split("loss ")[-1].split(",")[0])
    scores = [
        d2l.bleu(
            d2l.predict_seq2seq(
                net, eng, src_vocab, tgt_vocab, NUM_STEPS, device
            )[0],
            fra,
            k=2,
        )
        for eng, fra in zip(ENGS, FRAS)
    ]
    return seconds, loss, scores


def run_ours(num_epochs, device, seed):
    """Train notebook 05's model; return (seconds, loss, BLEUs)."""
    train_iter, src_vocab, tgt_vocab = ours.load_data_nmt(
        BATCH_SIZE, NUM_STEPS, NUM_EXAMPLES
    )
    torch.manual_seed(seed)
    random.seed(seed)
    encoder = ours.Seq2SeqEncoder(len(src_vocab), **SIZES)
    decoder = ours.Seq2SeqAttentionDecoder(len(tgt_vocab), **SIZES)
    net = ours.EncoderDecoder(encoder, decoder)
    start = time.perf_counter()
    losses = ours.train_seq2seq(
        net,
        train_iter,
        LR,
        num_epochs,
        tgt_vocab,
        device,
        plot=False,
        progress=False,
    )
    seconds = time.perf_counter() - start
    scores = [
        ours.bleu(
            ours.predict_seq2seq(
                net, eng, src_vocab, tgt_vocab, NUM_STEPS, device
            )[0],
            fra,
            k=2,
        )
        for eng, fra in zip(ENGS, FRAS)
    ]
    return seconds, losses[-1], scores


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--epochs", type=int, default=250)
    parser.add_argument(
        "--seeds",
        type=int,
        default=2,
        help="train each model with seeds 0 .. N-1",
    )
    parser.add_argument(
        "--threads",
        type=int,
        default=None,
        help="torch threads for both (default: torch's)",
    )
    args = parser.parse_args()
    if args.threads:
        torch.set_num_threads(args.threads)
    device = ours.try_gpu()
    d2l = import_d2l()
    text = ours.read_data_nmt()
    rows = []
    for seed in range(args.seeds):
        rows.append(
            (
                "d2l 0.17.6 reference",
                seed,
                run_reference(d2l, text, args.epochs, device, seed),
            )
        )
        rows.append(
            ("d2l_attention", seed, run_ours(args.epochs, device, seed))
        )
    print(
        f"Bahdanau seq2seq, {args.epochs} epochs, {NUM_EXAMPLES} pairs, "
        f"{device}, {torch.get_num_threads()} threads (d2l_attention "
        "trains on 1 CPU thread by default)"
    )
    print(
        f"{'':22}{'seed':>5}{'seconds':>9}{'loss':>8}   "
        "BLEU of the four sentences"
    )
    for name, seed, (seconds, loss, scores) in rows:
        bleus = " ".join(f"{s:.3f}" for s in scores)
        print(
            f"{name:22}{seed:5}{seconds:9.1f}{loss:8.3f}   {bleus}"
            f"  (mean {sum(scores) / 4:.3f})"
        )
    for name in ["d2l 0.17.6 reference", "d2l_attention"]:
        mine = [result for label, _, result in rows if label == name]
        print(
            f"{name:22} mean over seeds: "
            f"{sum(r[0] for r in mine) / len(mine):.1f} s, loss "
            f"{sum(r[1] for r in mine) / len(mine):.4f}, BLEU "
            f"{sum(sum(r[2]) / 4 for r in mine) / len(mine):.3f}"
        )
    ref_time = sum(r[0] for n, _, r in rows if n.startswith("d2l 0"))
    our_time = sum(r[0] for n, _, r in rows if n == "d2l_attention")
    print(f"time ratio ours / reference: {our_time / ref_time:.2f}")


if __name__ == "__main__":
    main()
