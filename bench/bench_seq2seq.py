"""Time to the book's quality: notebooks 05 and 06's models against d2l 0.17.6.

Two models, each trained by both sides: the no-attention encoder-decoder
of notebook 05 (`--model seq2seq`) and the Bahdanau model of notebook 06
(`--model bahdanau`). The book defines both decoders in its text only, so
tests/d2l_reference.py writes them out on d2l's base classes.

Like with like: both sides train the source's model (embed 32, hidden 32,
2 layers, dropout 0.1, batch 64, 10 steps, lr 0.005, 600 pairs) on the
same text with the same seeds, and neither side plots. The reference is
d2l's Seq2SeqEncoder with the book's decoder, trained by d2l.train_seq2seq
with its Animator replaced by a stand-in that draws nothing (d2l's
load_data_nmt reads the excerpt that ships in data/ through a patched
read_data_nmt, since its own would download the book's archive, another
cut of the corpus); ours is d2l_attention's train_seq2seq without its
plot and progress bar.

Quality: each side trains once per seed, d2l --epochs (the book's 250),
ours --our-epochs (default: as many, as notebook 06 trains). Prints each
run's final loss (the book's definition on both sides: each sentence's
summed cross-entropy over its valid tokens divided by num_steps, summed
over the epoch and divided by the number of valid tokens) and the mean of
the book's BLEU (k=2) over the source's four sentences (one BLEU function,
ours, scores both sides: d2l's divides by zero on a prediction shorter
than k); for ours also the first epoch whose loss is no higher than d2l's
final loss (mean over seeds).

Speed: one epoch of each side (a call of its train_seq2seq for one epoch),
timed in interleaved rounds at each thread count (bench/timing.py); the
time of ours for --our-epochs over d2l's for --epochs, as a ratio (below 1
means ours is faster).

    .venv/bin/python -m bench.bench_seq2seq [--model seq2seq,bahdanau]
        [--epochs N] [--our-epochs M] [--seeds N] [--threads 1,default]
        [--rounds N]
"""

import argparse
import contextlib
import io
import random
import statistics

import torch

import d2l_attention as ours
from bench.timing import interleaved, thread_counts
from tests.d2l_reference import (
    book_attention_decoder_class,
    book_seq2seq_decoder_class,
    import_d2l,
)

ENGS = ["go .", "i lost .", "he's calm .", "i'm home ."]
FRAS = ["va !", "j'ai perdu .", "il est calme .", "je suis chez moi ."]
SIZES = dict(embed_size=32, num_hiddens=32, num_layers=2, dropout=0.1)
BATCH_SIZE, NUM_STEPS, LR, NUM_EXAMPLES = 64, 10, 0.005, 600
SIDES = ["d2l 0.17.6", "d2l_attention"]


class NoAnimator:
    """Stands in for d2l.Animator: draws nothing, keeps the last value.

    d2l.train_seq2seq prints its final loss to 3 decimals only; the value
    it hands the animator every 10 epochs is the loss in full.
    """

    last = None

    def __init__(self, *args, **kwargs):
        pass

    def add(self, x, y):
        NoAnimator.last = y[0]


class Side:
    """One side's model, data and training function."""

    def __init__(self, d2l, name, model, data):
        self.name, self.data = name, data
        self.lib = d2l if name == "d2l 0.17.6" else ours
        if self.lib is ours:
            self.decoder_class = (
                ours.Seq2SeqDecoder
                if model == "seq2seq"
                else ours.Seq2SeqAttentionDecoder
            )
        else:
            self.decoder_class = (
                book_seq2seq_decoder_class(d2l)
                if model == "seq2seq"
                else book_attention_decoder_class(d2l)
            )

    def train(self, num_epochs, seed, device):
        """Train a new model; return it and the loss of its last epoch(s)."""
        train_iter, src_vocab, tgt_vocab = self.data
        torch.manual_seed(seed)
        random.seed(seed)
        net = self.lib.EncoderDecoder(
            self.lib.Seq2SeqEncoder(len(src_vocab), **SIZES),
            self.decoder_class(len(tgt_vocab), **SIZES),
        )
        if self.lib is ours:  # on the book's scale: per token / NUM_STEPS
            return net, [
                loss / NUM_STEPS
                for loss in ours.train_seq2seq(
                    net,
                    train_iter,
                    LR,
                    num_epochs,
                    tgt_vocab,
                    device,
                    plot=False,
                    progress=False,
                )
            ]
        with contextlib.redirect_stdout(io.StringIO()):
            self.lib.train_seq2seq(
                net, train_iter, LR, num_epochs, tgt_vocab, device
            )
        return net, [NoAnimator.last]

    def bleu(self, net, device):
        """The mean book BLEU (k=2) of the four source sentences, scored by
        our bleu on both sides."""
        _, src_vocab, tgt_vocab = self.data
        return statistics.mean(
            ours.bleu(
                self.lib.predict_seq2seq(
                    net, eng, src_vocab, tgt_vocab, NUM_STEPS, device
                )[0],
                fra,
                k=2,
            )
            for eng, fra in zip(ENGS, FRAS)
        )


def quality(sides, epochs, args, device):
    """Train each side once per seed; print loss, BLEU and the epoch at
    which ours first reaches d2l's final loss."""
    runs = {side.name: [] for side in sides}
    for seed in range(args.seeds):
        for side in sides:
            net, losses = side.train(epochs[side.name], seed, device)
            runs[side.name].append((losses, side.bleu(net, device)))
    book_loss = statistics.mean(losses[-1] for losses, _ in runs[SIDES[0]])
    print(f"{'':15}{'seed':>5}{'loss':>8}{'BLEU':>7}{'epoch at d2l loss':>19}")
    for name, results in runs.items():
        for seed, (losses, score) in enumerate(results):
            reached = (
                ""
                if name == SIDES[0]
                else next(
                    (
                        str(epoch)
                        for epoch, loss in enumerate(losses, 1)
                        if loss <= book_loss
                    ),
                    "not reached",
                )
            )
            print(
                f"{name:15}{seed:5}{losses[-1]:8.4f}{score:7.3f}{reached:>19}"
            )
        print(
            f"{name:15} mean"
            f"{statistics.mean(r[0][-1] for r in results):8.4f}"
            f"{statistics.mean(r[1] for r in results):7.3f}"
        )


def speed(sides, epochs, args, device):
    """Time one epoch of each side in interleaved rounds; print the time of
    each side's full training and their ratio."""
    calls = {
        side.name: (lambda side=side: side.train(1, 0, device))
        for side in sides
    }
    for num_threads in thread_counts(args.threads, torch.get_num_threads()):
        times = interleaved(calls, num_threads, args.rounds, 0.5)
        per_round = [
            ours_s * epochs[SIDES[1]] / (book_s * epochs[SIDES[0]])
            for book_s, ours_s in zip(*times.values())
        ]
        full = {
            name: statistics.median(t) * epochs[name]
            for name, t in times.items()
        }
        print(
            f"{num_threads} thread(s): d2l {epochs[SIDES[0]]} epochs "
            f"{full[SIDES[0]]:.1f} s, ours {epochs[SIDES[1]]} epochs "
            f"{full[SIDES[1]]:.1f} s; ratio ours / d2l "
            f"{statistics.median(per_round):.2f} (rounds "
            f"{min(per_round):.2f} .. {max(per_round):.2f})"
        )


def load_both(d2l, text):
    """Return the minibatches and vocabularies of both sides, same pairs."""
    d2l.read_data_nmt = lambda: text
    # d2l 0.17's tokenize_nmt breaks only once the line index exceeds
    # num_examples (`if i > num_examples`), so it keeps lines 0 to
    # num_examples, one pair more than asked: 599 gives it our 600 pairs
    reference = d2l.load_data_nmt(BATCH_SIZE, NUM_STEPS, NUM_EXAMPLES - 1)
    mine = ours.load_data_nmt(BATCH_SIZE, NUM_STEPS, NUM_EXAMPLES)
    their_X, _, their_Y, _ = reference[0].dataset.tensors
    my_X, _, my_Y, _ = mine[0].dataset.tensors
    if (
        reference[1].idx_to_token != mine[1].idx_to_token
        or reference[2].idx_to_token != mine[2].idx_to_token
        or not torch.equal(their_X, my_X)
        or not torch.equal(their_Y, my_Y)
    ):
        raise RuntimeError("the two sides read different training pairs")
    return {SIDES[0]: reference, SIDES[1]: mine}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--epochs", type=int, default=250)
    parser.add_argument(
        "--our-epochs",
        type=int,
        default=None,
        help="epochs of ours (default: --epochs)",
    )
    parser.add_argument(
        "--seeds",
        type=int,
        default=3,
        help="train each model with seeds 0 .. N-1",
    )
    parser.add_argument(
        "--model",
        default="seq2seq,bahdanau",
        help='models, "seq2seq" (no attention), "bahdanau"',
    )
    parser.add_argument(
        "--threads",
        default="1,default",
        help='thread counts, e.g. "1,default" or "1,2"',
    )
    parser.add_argument(
        "--rounds",
        type=int,
        default=10,
        help="interleaved rounds of epoch timings",
    )
    args = parser.parse_args()
    models = args.model.split(",")
    if unknown := set(models) - {"seq2seq", "bahdanau"}:
        parser.error(
            f"unknown --model {', '.join(sorted(unknown))}; "
            "choose from seq2seq, bahdanau"
        )
    if args.epochs % 10:
        parser.error(
            "d2l reports its loss every 10 epochs: give --epochs "
            f"as a multiple of 10, not {args.epochs}"
        )
    epochs = {SIDES[0]: args.epochs, SIDES[1]: args.our_epochs or args.epochs}
    d2l = import_d2l()
    d2l.Animator = NoAnimator  # d2l.train_seq2seq looks it up here
    device = ours.try_gpu()
    data = load_both(d2l, ours.read_data_nmt())
    for model in models:
        sides = [Side(d2l, name, model, data[name]) for name in SIDES]
        print(
            f"\n{model}: torch {torch.__version__}, {device}, "
            f"{NUM_EXAMPLES} pairs, seeds 0..{args.seeds - 1}; d2l "
            f"{epochs[SIDES[0]]} epochs, ours {epochs[SIDES[1]]}"
        )
        quality(sides, epochs, args, device)
        speed(sides, epochs, args, device)


if __name__ == "__main__":
    main()
