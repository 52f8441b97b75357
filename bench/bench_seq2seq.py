"""Time to the book's quality: notebooks 05 and 06's models against d2l 0.17.6.

Two models, each trained by both sides: the no-attention encoder-decoder
of notebook 05 (`--model seq2seq`) and the Bahdanau model of notebook 06
(`--model bahdanau`). The book defines both decoders in its text only, so
tools/d2l_reference.py writes them out on d2l's base classes.

Like with like: both sides train the source's model (embed 32, hidden 32,
2 layers, dropout 0.1, batch 64, 10 steps, lr 0.005, 600 pairs) on the
same text with the same seeds and the same number of CPU threads, and
neither side plots. d2l trains --epochs (the book's 250); ours trains
--our-epochs (default: as many), the epochs a notebook trains. The
reference is d2l's Seq2SeqEncoder
with the book's Seq2SeqDecoder or Seq2SeqAttentionDecoder, trained by
d2l.train_seq2seq with its Animator replaced by a stand-in that draws
nothing (d2l.load_data_nmt reads our copy of the corpus through a patched
d2l.read_data_nmt, since it would download); ours is d2l_attention's
train_seq2seq without its plot and progress bar. The two sides alternate,
and which one goes first alternates from seed to seed, so a change in the
machine's load hits both. Each thread count gets a short untimed warm-up
of both sides first.

Prints, per model and thread count, each run's wall time, final loss (the
book's definition on both sides: each sentence's summed cross-entropy over
its valid tokens divided by num_steps, summed over the epoch and divided
by the number of valid tokens) and the mean of the book's BLEU (k=2) over
the source's four sentences (one BLEU function, ours, scores both sides:
d2l's divides by zero on a prediction shorter than k); for ours also the
first epoch whose loss is no higher than d2l's final loss (mean over
seeds). Then the means over seeds and the time ratio ours / d2l (below 1
means ours is faster).

    .venv/bin/python bench/bench_seq2seq.py [--model seq2seq,bahdanau]
        [--epochs N] [--our-epochs M] [--seeds N] [--threads 1,default]
"""

import argparse
import contextlib
import io
import random
import statistics
import sys
import time
from pathlib import Path

import torch

import d2l_attention as ours

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))

from d2l_reference import (  # noqa: E402
    book_attention_decoder_class,
    book_seq2seq_decoder_class,
    import_d2l,
)

ENGS = ["go .", "i lost .", "he's calm .", "i'm home ."]
FRAS = ["va !", "j'ai perdu .", "il est calme .", "je suis chez moi ."]
SIZES = dict(embed_size=32, num_hiddens=32, num_layers=2, dropout=0.1)
BATCH_SIZE, NUM_STEPS, LR, NUM_EXAMPLES = 64, 10, 0.005, 600
WARM_UP_EPOCHS = 10  # d2l reports its loss every 10 epochs


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


def mean_bleu(predict, bleu, net, src_vocab, tgt_vocab, device):
    """Return the mean book BLEU (k=2) of the four source sentences."""
    scores = [
        bleu(
            predict(net, eng, src_vocab, tgt_vocab, NUM_STEPS, device)[0],
            fra,
            k=2,
        )
        for eng, fra in zip(ENGS, FRAS)
    ]
    return sum(scores) / len(scores)


def run_reference(d2l, model, data, num_epochs, device, seed):
    """Train the book's model with d2l; return (seconds, [loss], BLEU)."""
    train_iter, src_vocab, tgt_vocab = data
    torch.manual_seed(seed)
    random.seed(seed)
    encoder = d2l.Seq2SeqEncoder(len(src_vocab), **SIZES)
    decoder_class = (book_seq2seq_decoder_class(d2l) if model == "seq2seq"
                     else book_attention_decoder_class(d2l))
    decoder = decoder_class(len(tgt_vocab), **SIZES)
    net = d2l.EncoderDecoder(encoder, decoder)
    start = time.perf_counter()
    with contextlib.redirect_stdout(io.StringIO()):
        d2l.train_seq2seq(net, train_iter, LR, num_epochs, tgt_vocab, device)
    seconds = time.perf_counter() - start
    if num_epochs % 10:
        raise ValueError("d2l reports its loss every 10 epochs: give "
                         f"--epochs as a multiple of 10, not {num_epochs}")
    loss = NoAnimator.last
    score = mean_bleu(
        d2l.predict_seq2seq, ours.bleu, net, src_vocab, tgt_vocab, device
    )
    return seconds, [loss], score


def run_ours(d2l, model, data, num_epochs, device, seed):
    """Train notebook 05's or 06's model; return (seconds, losses, BLEU)."""
    train_iter, src_vocab, tgt_vocab = data
    torch.manual_seed(seed)
    random.seed(seed)
    encoder = ours.Seq2SeqEncoder(len(src_vocab), **SIZES)
    decoder_class = (ours.Seq2SeqDecoder if model == "seq2seq"
                     else ours.Seq2SeqAttentionDecoder)
    decoder = decoder_class(len(tgt_vocab), **SIZES)
    net = ours.EncoderDecoder(encoder, decoder)
    start = time.perf_counter()
    losses = ours.train_seq2seq(
        net, train_iter, LR, num_epochs, tgt_vocab, device,
        plot=False, progress=False,
    )
    seconds = time.perf_counter() - start
    # the same BLEU function on both sides
    score = mean_bleu(
        ours.predict_seq2seq, ours.bleu, net, src_vocab, tgt_vocab, device
    )
    return seconds, losses, score


@contextlib.contextmanager
def torch_threads(num_threads):
    """Run the body with num_threads torch threads, then restore."""
    before = torch.get_num_threads()
    torch.set_num_threads(num_threads)
    try:
        yield
    finally:
        torch.set_num_threads(before)


def bench_threads(d2l, model, data, args, device, num_threads):
    """Return {side: [(seconds, losses, BLEU) per seed]} at num_threads."""
    sides = {"d2l 0.17.6": (run_reference, data["d2l"], args.epochs),
             "d2l_attention": (run_ours, data["ours"], args.our_epochs)}
    results = {name: [] for name in sides}
    with torch_threads(num_threads):
        for run, side_data, _ in sides.values():  # warm-up, untimed
            run(d2l, model, side_data, WARM_UP_EPOCHS, device, 0)
        for seed in range(args.seeds):
            order = list(sides) if seed % 2 == 0 else list(sides)[::-1]
            for name in order:
                run, side_data, epochs = sides[name]
                results[name].append(
                    run(d2l, model, side_data, epochs, device, seed))
    return results


def report(results, model, num_threads, args, device):
    """Print one thread count's runs, means and time ratio."""
    print(f"\n{model}: {num_threads} thread(s), {device}, {NUM_EXAMPLES} "
          f"pairs, seeds 0..{args.seeds - 1}; d2l {args.epochs} epochs, "
          f"ours {args.our_epochs}")
    book_loss = statistics.mean(run[1][-1] for run in results["d2l 0.17.6"])
    print(f"{'':15}{'seed':>5}{'seconds':>9}{'loss':>8}{'BLEU':>7}"
          f"{'epoch at d2l loss':>19}")
    for name, runs in results.items():
        for seed, (seconds, losses, score) in enumerate(runs):
            reached = "" if name == "d2l 0.17.6" else next(
                (str(epoch) for epoch, loss in enumerate(losses, 1)
                 if loss <= book_loss), "not reached")
            print(f"{name:15}{seed:5}{seconds:9.1f}{losses[-1]:8.4f}"
                  f"{score:7.3f}{reached:>19}")
    means = {}
    for name, runs in results.items():
        means[name] = [statistics.mean(run[0] for run in runs),
                       statistics.mean(run[1][-1] for run in runs),
                       statistics.mean(run[2] for run in runs)]
        seconds, loss, score = means[name]
        print(f"{name:15} mean{seconds:9.1f}{loss:8.4f}{score:7.3f}")
    ratios = [a[0] / b[0] for a, b in zip(results["d2l_attention"],
                                          results["d2l 0.17.6"])]
    ratio = means["d2l_attention"][0] / means["d2l 0.17.6"][0]
    gap = means["d2l_attention"][2] - means["d2l 0.17.6"][2]
    print(f"time ratio ours ({args.our_epochs} epochs) / d2l "
          f"({args.epochs} epochs): {ratio:.2f} (per seed {min(ratios):.2f}"
          f" .. {max(ratios):.2f}); mean BLEU ours - d2l: {gap:+.3f}")


def load_both(d2l, text):
    """Return the minibatches and vocabularies of both sides, same pairs."""
    d2l.read_data_nmt = lambda: text
    # d2l reads one line more than num_examples: 599 gives our 600 pairs
    reference = d2l.load_data_nmt(BATCH_SIZE, NUM_STEPS, NUM_EXAMPLES - 1)
    mine = ours.load_data_nmt(BATCH_SIZE, NUM_STEPS, NUM_EXAMPLES)
    if len(reference[1]) != len(mine[1]) or len(reference[2]) != len(
            mine[2]):
        raise RuntimeError("the two sides read different training pairs")
    return {"d2l": reference, "ours": mine}


def thread_counts(text):
    """Parse --threads: comma-separated counts, "default" for torch's."""
    default = torch.get_num_threads()
    counts = [default if part == "default" else int(part)
              for part in text.split(",")]
    return list(dict.fromkeys(counts))  # without repeats, in order


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--epochs", type=int, default=250)
    parser.add_argument("--our-epochs", type=int, default=None,
                        help="epochs of ours (default: --epochs)")
    parser.add_argument("--seeds", type=int, default=3,
                        help="train each model with seeds 0 .. N-1")
    parser.add_argument("--model", default="seq2seq,bahdanau",
                        help='models, "seq2seq" (no attention), "bahdanau"')
    parser.add_argument("--threads", default="1,default",
                        help='thread counts, e.g. "1,default" or "1,2"')
    args = parser.parse_args()
    if args.our_epochs is None:
        args.our_epochs = args.epochs
    d2l = import_d2l()
    d2l.Animator = NoAnimator  # d2l.train_seq2seq looks it up here
    device = ours.try_gpu()
    data = load_both(d2l, ours.read_data_nmt())
    models = args.model.split(",")
    unknown = set(models) - {"seq2seq", "bahdanau"}
    if unknown:
        parser.error(f"unknown --model {', '.join(sorted(unknown))}; "
                     "choose from seq2seq, bahdanau")
    print(f"torch {torch.__version__}; seq2seq training, "
          "d2l 0.17.6 against d2l_attention")
    for model in models:
        for num_threads in thread_counts(args.threads):
            results = bench_threads(d2l, model, data, args, device,
                                    num_threads)
            report(results, model, num_threads, args, device)


if __name__ == "__main__":
    main()
