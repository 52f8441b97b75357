"""Where a training batch of notebook 06's Bahdanau model spends its time.

Two measurements, both on the source's model and settings (embed 32, hidden
32, 2 layers, dropout 0.1, batch 64, 10 steps, lr 0.005, 600 pairs) and the
training step of `train_seq2seq` (padding columns cut, encoder packed):

1. Phases of a batch: data loading, encoder forward, decoder forward, loss,
   backward pass, gradient clipping, optimizer step; milliseconds per batch,
   summed over the epochs after a warm-up.
2. Bounds, one epoch each in turn with the order rotating (so the epochs
   of one round run under the same load), as a fraction of the model's
   own epoch time:
   - "no scoring": the same decoder with the attention scoring taken out
     (the context is the first encoder state, no weights computed), a
     lower bound on what any faster scoring could reach;
   - "no attention": notebook 05's decoder, whose GRU reads the whole
     target in one call instead of one step at a time.

    .venv/bin/python bench/bench_bahdanau_parts.py [--epochs N] [--seeds N]
        [--threads N]
"""

import argparse
import statistics
import time

import torch

import d2l_attention as ours

SIZES = dict(embed_size=32, num_hiddens=32, num_layers=2, dropout=0.1)
BATCH_SIZE, NUM_STEPS, LR = 64, 10, 0.005
WARM_UP_EPOCHS = 2
PHASES = ["data", "encoder", "decoder", "loss", "backward", "clipping",
          "optimizer"]


class NoScoringDecoder(ours.Seq2SeqAttentionDecoder):
    """The Bahdanau decoder stepping its GRU with a context left unscored."""

    def forward(self, X, state):
        enc_outputs, hidden_state, enc_valid_lens = state
        X = self.embedding(X).permute(1, 0, 2)  # (steps, batch, embed_size)
        context = enc_outputs[:, :1]  # (batch_size, 1, num_hiddens)
        outputs = []
        for x in X:
            x = torch.cat((context, x.unsqueeze(1)), dim=-1).permute(1, 0, 2)
            out, hidden_state = self.rnn(x, hidden_state)
            outputs.append(out)
        outputs = self.dense(torch.cat(outputs, dim=0)).permute(1, 0, 2)
        return outputs, [enc_outputs, hidden_state, enc_valid_lens]


def make_run(decoder_class, vocab_sizes, seed):
    """Return (net, optimizer) of an initialised model in training mode."""
    torch.manual_seed(seed)
    net = ours.EncoderDecoder(ours.Seq2SeqEncoder(vocab_sizes[0], **SIZES),
                              decoder_class(vocab_sizes[1], **SIZES))
    net.apply(ours.xavier_init_weights)
    net.train()
    return net, torch.optim.Adam(net.parameters(), lr=LR)


def phase_times(net, optimizer, data_iter, bos, totals):
    """Train one epoch, adding each phase's seconds to totals; return the
    number of batches."""
    loss = ours.MaskedSoftmaxCELoss()
    num_batches = 0
    start = time.perf_counter()
    for X, X_valid_len, Y, Y_valid_len in data_iter:
        marks = [start, time.perf_counter()]  # data loaded
        num_steps = Y.shape[1]
        Y = Y[:, :int(Y_valid_len.max())]
        dec_input = torch.cat([torch.full((Y.shape[0], 1), bos), Y[:, :-1]],
                              1)
        state = net.decoder.init_state(net.encoder(X, X_valid_len),
                                       X_valid_len)
        marks.append(time.perf_counter())
        Y_hat, _ = net.decoder(dec_input, state)
        marks.append(time.perf_counter())
        batch_loss = loss(Y_hat, Y, Y_valid_len, num_steps).sum()
        marks.append(time.perf_counter())
        optimizer.zero_grad()
        batch_loss.backward()
        marks.append(time.perf_counter())
        ours.grad_clipping(net, 1)
        marks.append(time.perf_counter())
        optimizer.step()
        batch_loss.item()
        marks.append(time.perf_counter())
        for phase, begin, end in zip(PHASES, marks, marks[1:]):
            totals[phase] += end - begin
        num_batches += 1
        start = time.perf_counter()
    return num_batches


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--epochs", type=int, default=12)
    parser.add_argument("--seeds", type=int, default=2)
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    data_iter, src_vocab, tgt_vocab = ours.load_data_nmt(BATCH_SIZE,
                                                         NUM_STEPS)
    vocab_sizes, bos = (len(src_vocab), len(tgt_vocab)), tgt_vocab["<bos>"]
    loss = ours.MaskedSoftmaxCELoss()
    print(f"torch {torch.__version__}, cpu, {args.threads} thread(s); "
          f"Bahdanau model, {args.epochs} epochs, seeds 0..{args.seeds - 1}")

    totals, num_batches = dict.fromkeys(PHASES, 0.0), 0
    for seed in range(args.seeds):
        net, optimizer = make_run(ours.Seq2SeqAttentionDecoder, vocab_sizes,
                                  seed)
        for epoch in range(WARM_UP_EPOCHS + args.epochs):
            counted = dict.fromkeys(PHASES, 0.0)
            batches = phase_times(net, optimizer, data_iter, bos, counted)
            if epoch >= WARM_UP_EPOCHS:
                num_batches += batches
                for phase in PHASES:
                    totals[phase] += counted[phase]
    print("\nms per batch")
    for phase in PHASES:
        print(f"{phase:12}{1000 * totals[phase] / num_batches:7.2f}")
    print(f"{'total':12}{1000 * sum(totals.values()) / num_batches:7.2f}")

    decoders = {"Bahdanau": ours.Seq2SeqAttentionDecoder,
                "no scoring": NoScoringDecoder,
                "no attention": ours.Seq2SeqDecoder}
    times = {name: [] for name in decoders}
    names = list(decoders)
    for seed in range(args.seeds):
        runs = {name: make_run(cls, vocab_sizes, seed)
                for name, cls in decoders.items()}
        for epoch in range(WARM_UP_EPOCHS + args.epochs):
            shift = epoch % len(names)
            for name in names[shift:] + names[:shift]:
                net, optimizer = runs[name]
                start = time.perf_counter()
                ours.train_epoch_seq2seq(net, data_iter, loss, optimizer,
                                         bos, "cpu")
                if epoch >= WARM_UP_EPOCHS:
                    times[name].append(time.perf_counter() - start)
    print(f"\n{'decoder':14}{'ms/epoch':>9}{'/ Bahdanau':>12}")
    for name, values in times.items():
        ratio = statistics.median(
            v / b for v, b in zip(values, times["Bahdanau"]))
        print(f"{name:14}{1000 * statistics.median(values):9.1f}"
              f"{ratio:12.2f}")


if __name__ == "__main__":
    main()
