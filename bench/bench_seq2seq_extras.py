"""What each speed extra of the seq2seq training loop buys, one at a time.

The notebooks keep an extra only where it buys at least 10% of the training
time. This bench trains the no-attention model of notebook 05
(`--model seq2seq`) and the Bahdanau model of notebook 06 (`--model
bahdanau`), both with the source's settings (embed 32, hidden 32, 2 layers,
dropout 0.1, batch 64, 10 steps, lr 0.005, 600 pairs), with the book's
plain loop, and with the plain loop plus one extra:

- pack: the encoder packs the batch (`pack_padded_sequence`) and reads each
  sentence up to its valid length only;
- slices: minibatches sliced from whole tensors (one indexing operation per
  tensor) instead of the book's `DataLoader(TensorDataset(...))`, which
  collates 64 single examples;
- cut: the target columns past the longest target of a minibatch are cut
  off before the forward pass;
- on-device sum: the epoch's loss is summed on the device and read once per
  epoch, instead of read with `.item()` after every minibatch (this can
  only matter on a GPU, where reading a value waits for the device);
- fused Adam: `torch.optim.Adam(..., fused=True)`, one kernel for all the
  parameters;
- one thread (with more than one thread only): training on one CPU thread
  instead of torch's thread count.

and with the notebooks' loop (the plain loop with the extras they keep: the
same `train_seq2seq` serves both models), with and without each of them.

Every variant trains the same data with the same seeds and the same number
of threads; nothing plots. The variants train side by side, one epoch each
in turn, the order rotating from epoch to epoch, after an untimed warm-up:
so the epochs of one round run under the same load, and each variant's
time is compared with the plain loop's epoch of the same round. Prints,
for each variant, the median time per epoch and the median over rounds of
its time as a fraction of the plain loop's (0.90: the extra saves 10%),
with the 10th to 90th percentile over rounds; then, for each extra that
the notebooks keep, the fraction of time it saves inside their loop.

    .venv/bin/python bench/bench_seq2seq_extras.py [--epochs N] [--seeds N]
        [--threads 1,default] [--model seq2seq,bahdanau]
"""

import argparse
import contextlib
import statistics
import time

import torch
from bench_seq2seq import torch_threads
from torch.utils.data import DataLoader, TensorDataset

import d2l_attention as ours

SIZES = dict(embed_size=32, num_hiddens=32, num_layers=2, dropout=0.1)
BATCH_SIZE, NUM_STEPS, LR = 64, 10, 0.005
WARM_UP_EPOCHS = 2
EXTRAS = ["pack", "slices", "cut", "on-device sum", "fused Adam"]
KEPT = ["pack", "cut"]  # the extras that the training loop keeps
DECODERS = {"seq2seq": ours.Seq2SeqDecoder,
            "bahdanau": ours.Seq2SeqAttentionDecoder}


class UnpackedEncoder(ours.Seq2SeqEncoder):
    """The encoder reading each sentence through its padding, as the book's."""

    def forward(self, X, valid_len=None, *args):
        return super().forward(X)


class SlicedBatches:
    """Minibatches sliced from whole tensors, reshuffled at every pass."""

    def __init__(self, tensors):
        self.tensors = tensors

    def __iter__(self):
        order = torch.randperm(len(self.tensors[0]))
        for start in range(0, len(order), BATCH_SIZE):
            rows = order[start:start + BATCH_SIZE]
            yield tuple(tensor[rows] for tensor in self.tensors)


def make_batches(tensors, slices):
    """Return the minibatches: sliced tensors or the book's DataLoader."""
    if slices:
        return SlicedBatches(tensors)
    return DataLoader(TensorDataset(*tensors), BATCH_SIZE, shuffle=True)


class Run:
    """A variant's model, optimizer and minibatches, trained epoch by epoch."""

    def __init__(self, tensors, vocab_sizes, bos, device, extras, seed,
                 model="seq2seq"):
        torch.manual_seed(seed)
        encoder_class = (ours.Seq2SeqEncoder if "pack" in extras
                         else UnpackedEncoder)
        self.net = ours.EncoderDecoder(
            encoder_class(vocab_sizes[0], **SIZES),
            DECODERS[model](vocab_sizes[1], **SIZES))
        self.net.apply(ours.xavier_init_weights)
        self.net.to(device).train()
        self.optimizer = torch.optim.Adam(self.net.parameters(), lr=LR,
                                          fused="fused Adam" in extras)
        self.loss = ours.MaskedSoftmaxCELoss()
        self.batches = make_batches(tensors, "slices" in extras)
        self.bos, self.device, self.extras = bos, device, extras

    def epoch(self):
        """Train one epoch; return (seconds, loss per token)."""
        net, device, bos = self.net, self.device, self.bos
        on_device = "on-device sum" in self.extras
        with contextlib.ExitStack() as stack:
            if "one thread" in self.extras:
                stack.enter_context(torch_threads(1))
            return self.timed_epoch(net, device, bos, on_device)

    def timed_epoch(self, net, device, bos, on_device):
        start = time.perf_counter()
        total = torch.zeros(2, device=device) if on_device else [0.0, 0]
        for X, X_valid_len, Y, Y_valid_len in self.batches:
            X, Y = X.to(device), Y.to(device)
            dec_input = torch.cat(
                [torch.full((Y.shape[0], 1), bos, device=device), Y[:, :-1]],
                1)
            if "cut" in self.extras:
                keep = int(Y_valid_len.max())
                Y_hat, _ = net(X, dec_input[:, :keep], X_valid_len)
                batch_loss = self.loss(Y_hat, Y[:, :keep], Y_valid_len,
                                       NUM_STEPS).sum()
            else:
                Y_hat, _ = net(X, dec_input, X_valid_len)
                batch_loss = self.loss(Y_hat, Y, Y_valid_len).sum()
            self.optimizer.zero_grad()
            batch_loss.backward()
            ours.grad_clipping(net, 1)
            self.optimizer.step()
            if on_device:
                total += torch.stack([
                    batch_loss.detach(),
                    Y_valid_len.sum().to(device, batch_loss.dtype)])
            else:
                total[0] += batch_loss.item()
                total[1] += int(Y_valid_len.sum())
        loss = float(total[0] / total[1])  # waits for the device
        return time.perf_counter() - start, loss


def bench(tensors, vocab_sizes, bos, device, variants, args, model):
    """Return {variant: [seconds of every epoch of every seed]}.

    Every variant trains its own model side by side: one epoch each in
    turn, the order rotating from epoch to epoch, so that each epoch's
    times are measured under the same load.
    """
    times = {name: [] for name in variants}
    names = list(variants)
    for seed in range(args.seeds):
        runs = {name: Run(tensors, vocab_sizes, bos, device, extras, seed,
                          model)
                for name, extras in variants.items()}
        for _ in range(WARM_UP_EPOCHS):
            for run in runs.values():
                run.epoch()
        for epoch in range(args.epochs):
            shift = epoch % len(names)
            for name in names[shift:] + names[:shift]:
                times[name].append(runs[name].epoch()[0])
    return times


def check_notebook_loop(data_iter, vocab_sizes, tgt_vocab, device, model):
    """Raise unless the "notebook" variant trains as train_seq2seq."""
    run = Run(data_iter.dataset.tensors, vocab_sizes, tgt_vocab["<bos>"],
              device, KEPT, seed=0, model=model)
    _, loss = run.epoch()
    torch.manual_seed(0)
    net = ours.EncoderDecoder(ours.Seq2SeqEncoder(vocab_sizes[0], **SIZES),
                              DECODERS[model](vocab_sizes[1], **SIZES))
    [expected] = ours.train_seq2seq(net, data_iter, LR, 1, tgt_vocab, device,
                                    plot=False, progress=False)
    if abs(loss - expected) > 1e-4 * expected:
        raise RuntimeError(f"the notebook variant's loss {loss} is not "
                           f"train_seq2seq's {expected} ({model})")


def report(name, values, base, time_column=True):
    """Print a variant's median time and its per-round ratio to base."""
    ratios = sorted(v / b for v, b in zip(values, base))
    low, high = (ratios[int(q * (len(ratios) - 1))] for q in (0.1, 0.9))
    ms = f"{1000 * statistics.median(values):9.1f}" if time_column else " " * 9
    print(f"{name:24}{ms}{statistics.median(ratios):9.2f}"
          f"{low:8.2f} ..{high:5.2f}")


def variants_of():
    """Return {variant name: its extras}."""
    variants = {"plain": []}
    variants.update({f"+ {extra}": [extra] for extra in EXTRAS})
    variants["notebook"] = KEPT
    variants.update({f"notebook - {extra}": [e for e in KEPT if e != extra]
                     for extra in KEPT})
    if ours.try_gpu().type == "cpu":  # fused Adam runs on CUDA only before 2.4
        try:
            torch.optim.Adam([torch.zeros(1, requires_grad=True)],
                             fused=True)
        except RuntimeError:
            del variants["+ fused Adam"]
    return variants


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--epochs", type=int, default=30)
    parser.add_argument("--seeds", type=int, default=4)
    parser.add_argument("--threads", default="1,default")
    parser.add_argument("--model", default="seq2seq,bahdanau")
    args = parser.parse_args()
    device = ours.try_gpu()
    data_iter, src_vocab, tgt_vocab = ours.load_data_nmt(BATCH_SIZE,
                                                         NUM_STEPS)
    vocab_sizes, bos = (len(src_vocab), len(tgt_vocab)), tgt_vocab["<bos>"]
    tensors = data_iter.dataset.tensors
    default = torch.get_num_threads()
    counts = dict.fromkeys(default if part == "default" else int(part)
                           for part in args.threads.split(","))
    for model in args.model.split(","):
        check_notebook_loop(data_iter, vocab_sizes, tgt_vocab, device, model)
        variants, kept = variants_of(), KEPT
        print(f"\ntorch {torch.__version__}, {device}; {model}, "
              f"{args.epochs} epochs, seeds 0..{args.seeds - 1}")
        for num_threads in counts:
            these = dict(variants)
            if num_threads != 1:
                these["notebook, 1 thread"] = kept + ["one thread"]
            with torch_threads(num_threads):
                times = bench(tensors, vocab_sizes, bos, device, these, args,
                              model)
            print(f"\n{model}, {num_threads} thread(s)")
            print(f"{'variant':24}{'ms/epoch':>9}{'/ plain':>9}"
                  f"{'10-90th pct':>15}")
            for name, values in times.items():
                report(name, values, times["plain"])
            print(f"{'in the notebook loop':24}{'':9}{'with/without':>13}")
            for extra in kept:
                report(f"  {extra}", times["notebook"],
                       times[f"notebook - {extra}"], time_column=False)
            if "notebook, 1 thread" in times:
                report("  1 thread", times["notebook, 1 thread"],
                       times["notebook"], time_column=False)


if __name__ == "__main__":
    main()
