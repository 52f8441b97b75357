"""What each speed extra of the seq2seq training loop buys.

The training loop of notebook 05 (`train_seq2seq`, which notebook 06 uses
too) keeps two extras that the book's loop does not have, for the time
they save:

- pack: the encoder packs the batch (`pack_padded_sequence`) and reads each
  sentence up to its valid length only;
- cut: the target columns past the longest target of a minibatch are cut
  off before the forward pass.

This bench trains the no-attention model of notebook 05 (`--model
seq2seq`) and the Bahdanau model of notebook 06 (`--model bahdanau`) with
the source's settings (embed 32, hidden 32, 2 layers, dropout 0.1, batch
64, 10 steps, lr 0.005, 600 pairs) four ways: the book's plain loop, the
plain loop plus one extra, and the notebooks' loop with both (checked
first to train exactly as `train_seq2seq`). One epoch of each is timed in
interleaved rounds (bench/timing.py) at each thread count. Prints each
variant's median time per epoch and the median over rounds of its time as
a fraction of the plain loop's (0.90: it saves 10%), with the lowest and
highest round.

    .venv/bin/python -m bench.bench_seq2seq_extras [--rounds N]
        [--threads 1,default] [--model seq2seq,bahdanau]
"""

import argparse
import statistics

import torch

import d2l_attention as ours
from bench.timing import interleaved, thread_counts

SIZES = dict(embed_size=32, num_hiddens=32, num_layers=2, dropout=0.1)
BATCH_SIZE, NUM_STEPS, LR = 64, 10, 0.005
VARIANTS = {
    "plain": [],
    "+ pack": ["pack"],
    "+ cut": ["cut"],
    "notebook": ["pack", "cut"],
}
DECODERS = {
    "seq2seq": ours.Seq2SeqDecoder,
    "bahdanau": ours.Seq2SeqAttentionDecoder,
}


class UnpackedEncoder(ours.Seq2SeqEncoder):
    """The encoder reading each sentence through its padding, as the book's."""

    def forward(self, X, valid_len=None, *args):
        return super().forward(X)


class Run:
    """A variant's model, optimizer and minibatches, trained epoch by epoch."""

    def __init__(self, data, extras, model, device, seed=0):
        data_iter, src_vocab, tgt_vocab = data
        torch.manual_seed(seed)
        encoder_class = (
            ours.Seq2SeqEncoder if "pack" in extras else UnpackedEncoder
        )
        self.net = ours.EncoderDecoder(
            encoder_class(len(src_vocab), **SIZES),
            DECODERS[model](len(tgt_vocab), **SIZES),
        )
        self.net.apply(ours.xavier_init_weights)
        self.net.to(device).train()
        self.optimizer = torch.optim.Adam(self.net.parameters(), lr=LR)
        self.loss = ours.MaskedSoftmaxCELoss()
        self.data_iter, self.bos = data_iter, tgt_vocab["<bos>"]
        self.device, self.cut = device, "cut" in extras

    def epoch(self):
        """Train one epoch; return the cross-entropy per target token."""
        net, device, total, tokens = self.net, self.device, 0.0, 0
        for X, X_valid_len, Y, Y_valid_len in self.data_iter:
            X, Y = X.to(device), Y.to(device)
            bos = torch.full((Y.shape[0], 1), self.bos, device=device)
            dec_input = torch.cat([bos, Y[:, :-1]], 1)
            keep = int(Y_valid_len.max()) if self.cut else NUM_STEPS
            Y_hat, _ = net(X, dec_input[:, :keep], X_valid_len)
            batch_loss = self.loss(
                Y_hat, Y[:, :keep], Y_valid_len, NUM_STEPS
            ).sum()
            self.optimizer.zero_grad()
            batch_loss.backward()
            ours.grad_clipping(net, 1)
            self.optimizer.step()
            total += batch_loss.item() * NUM_STEPS  # undo the / NUM_STEPS
            tokens += int(Y_valid_len.sum())
        return total / tokens


def check_notebook_loop(data, model, device):
    """Raise unless the "notebook" variant trains as train_seq2seq."""
    loss = Run(data, VARIANTS["notebook"], model, device).epoch()
    data_iter, src_vocab, tgt_vocab = data
    torch.manual_seed(0)
    net = ours.EncoderDecoder(
        ours.Seq2SeqEncoder(len(src_vocab), **SIZES),
        DECODERS[model](len(tgt_vocab), **SIZES),
    )
    [expected] = ours.train_seq2seq(
        net, data_iter, LR, 1, tgt_vocab, device, plot=False, progress=False
    )
    if abs(loss - expected) > 1e-4 * expected:
        raise RuntimeError(
            f"the notebook variant's loss {loss} is not "
            f"train_seq2seq's {expected} ({model})"
        )


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--threads", default="1,default")
    parser.add_argument("--model", default="seq2seq,bahdanau")
    args = parser.parse_args()
    device = ours.try_gpu()
    data = ours.load_data_nmt(BATCH_SIZE, NUM_STEPS)
    for model in args.model.split(","):
        check_notebook_loop(data, model, device)
        runs = {
            name: Run(data, extras, model, device)
            for name, extras in VARIANTS.items()
        }
        calls = {name: run.epoch for name, run in runs.items()}
        for num_threads in thread_counts(
            args.threads, torch.get_num_threads()
        ):
            times = interleaved(calls, num_threads, args.rounds, 0.2)
            print(
                f"\n{model}, {num_threads} thread(s), torch "
                f"{torch.__version__}, {device}; {args.rounds} rounds"
            )
            print(
                f"{'variant':12}{'ms/epoch':>9}{'/ plain':>9}"
                f"{'lowest .. highest':>19}"
            )
            for name, values in times.items():
                ratios = [v / p for v, p in zip(values, times["plain"])]
                print(
                    f"{name:12}{1000 * statistics.median(values):9.1f}"
                    f"{statistics.median(ratios):9.2f}"
                    f"{min(ratios):10.2f} .. {max(ratios):.2f}"
                )


if __name__ == "__main__":
    main()
