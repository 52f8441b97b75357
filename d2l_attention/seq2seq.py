# generated from notebooks/05_seq2seq.ipynb, do not edit

import collections
import math
import re
from pathlib import Path
import matplotlib.pyplot as plt
import torch
from IPython.display import display
from torch import nn
from torch.nn import functional as F
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence
from tqdm.auto import tqdm
import d2l_attention
from .masked_softmax import sequence_mask

__all__ = [
    "find_data_file",
    "read_data_nmt",
    "preprocess_nmt",
    "tokenize_nmt",
    "Vocab",
    "truncate_pad",
    "build_array_nmt",
    "load_array",
    "load_data_nmt",
    "Encoder",
    "Decoder",
    "EncoderDecoder",
    "Seq2SeqEncoder",
    "Seq2SeqDecoder",
    "MaskedSoftmaxCELoss",
    "grad_clipping",
    "xavier_init_weights",
    "LossCurve",
    "train_epoch_seq2seq",
    "train_seq2seq",
    "encode_source",
    "predict_seq2seq",
    "bleu",
]


def find_data_file(data_dir=None):
    """Return the path of fra-eng/fra.txt; raise FileNotFoundError if absent.

    Looks in data_dir when given, else in the project's data/ folder.
    Defined in notebook 05.
    """
    if data_dir is not None:
        folders = [Path(data_dir)]
    else:
        project = Path(d2l_attention.__file__).resolve().parent.parent
        folders = [project / "data", Path.cwd() / "data"]
    for folder in folders:
        path = folder / "fra-eng" / "fra.txt"
        if path.is_file():
            return path
    raise FileNotFoundError(
        "the English-French corpus fra-eng/fra.txt is not in "
        f"{' or '.join(str(folder) for folder in folders)}: run `make data` "
        "in the project folder (offline: FRA_ENG_ZIP=/path/to/fra-eng.zip "
        "make data)")


def read_data_nmt(data_dir=None):
    """Return the raw text of the English-French corpus.

    Defined in notebook 05.
    """
    return find_data_file(data_dir).read_text(encoding="utf-8")


def preprocess_nmt(text):
    """Return text lowercased, with a space before , . ! ? marks.

    Defined in notebook 05.
    """
    text = text.replace("\u202f", " ").replace("\xa0", " ").lower()
    return re.sub(r"(?<=[^ ])([,.!?])", r" \1", text)


def tokenize_nmt(text, num_examples=None):
    """Return (source, target) token lists of the first num_examples pairs.

    Defined in notebook 05.
    """
    source, target = [], []
    for line in text.split("\n"):
        if num_examples is not None and len(source) >= num_examples:
            break
        parts = line.split("\t")
        if len(parts) == 2:
            source.append(parts[0].split())
            target.append(parts[1].split())
    return source, target


class Vocab:
    """Vocabulary of tokens, most frequent first, index 0 for <unk>.

    Defined in notebook 05.
    """

    def __init__(self, tokens=None, min_freq=0, reserved_tokens=None):
        counts = collections.Counter(
            token for line in tokens or [] for token in line)
        self.idx_to_token = ["<unk>"] + list(reserved_tokens or [])
        self.token_to_idx = {t: i for i, t in enumerate(self.idx_to_token)}
        # most_common sorts by count; equal counts keep first-seen order
        for token, freq in counts.most_common():
            if freq >= min_freq and token not in self.token_to_idx:
                self.token_to_idx[token] = len(self.idx_to_token)
                self.idx_to_token.append(token)

    def __len__(self):
        return len(self.idx_to_token)

    def __getitem__(self, tokens):
        if isinstance(tokens, (list, tuple)):
            return [self[token] for token in tokens]
        return self.token_to_idx.get(tokens, self.unk)

    def to_tokens(self, indices):
        if isinstance(indices, (list, tuple)):
            return [self.idx_to_token[index] for index in indices]
        return self.idx_to_token[indices]

    @property
    def unk(self):
        return 0


def truncate_pad(line, num_steps, padding_token):
    """Return line cut or padded with padding_token to num_steps items.

    Defined in notebook 05.
    """
    return line[:num_steps] + [padding_token] * (num_steps - len(line))


def build_array_nmt(lines, vocab, num_steps):
    """Return (indices, valid lengths) of token lines, <eos> appended.

    Defined in notebook 05.
    """
    rows = [truncate_pad(vocab[line] + [vocab["<eos>"]], num_steps,
                         vocab["<pad>"]) for line in lines]
    array = torch.tensor(rows, dtype=torch.long)  # (no. of lines, num_steps)
    valid_len = (array != vocab["<pad>"]).sum(dim=1)  # (no. of lines,)
    return array, valid_len


def load_array(data_arrays, batch_size, is_train=True):
    """Return a DataLoader over tensors, shuffled when is_train.

    Defined in notebook 05.
    """
    dataset = torch.utils.data.TensorDataset(*data_arrays)
    return torch.utils.data.DataLoader(dataset, batch_size, shuffle=is_train)


def load_data_nmt(batch_size, num_steps, num_examples=600, data_dir=None):
    """Return (minibatch iterator, source vocab, target vocab).

    Defined in notebook 05.
    """
    text = preprocess_nmt(read_data_nmt(data_dir))
    source, target = tokenize_nmt(text, num_examples)
    reserved = ["<pad>", "<bos>", "<eos>"]
    src_vocab = Vocab(source, min_freq=2, reserved_tokens=reserved)
    tgt_vocab = Vocab(target, min_freq=2, reserved_tokens=reserved)
    src_array, src_valid_len = build_array_nmt(source, src_vocab, num_steps)
    tgt_array, tgt_valid_len = build_array_nmt(target, tgt_vocab, num_steps)
    data_arrays = (src_array, src_valid_len, tgt_array, tgt_valid_len)
    return load_array(data_arrays, batch_size), src_vocab, tgt_vocab


class Encoder(nn.Module):
    """The base encoder interface. Defined in notebook 05."""

    def forward(self, X, *args):
        raise NotImplementedError


class Decoder(nn.Module):
    """The base decoder interface. Defined in notebook 05."""

    def init_state(self, enc_outputs, *args):
        raise NotImplementedError

    def forward(self, X, state):
        raise NotImplementedError


class EncoderDecoder(nn.Module):
    """An encoder and a decoder trained together. Defined in notebook 05."""

    def __init__(self, encoder, decoder, **kwargs):
        super().__init__(**kwargs)
        self.encoder, self.decoder = encoder, decoder

    def forward(self, enc_X, dec_X, *args):
        enc_outputs = self.encoder(enc_X, *args)
        dec_state = self.decoder.init_state(enc_outputs, *args)
        return self.decoder(dec_X, dec_state)


class Seq2SeqEncoder(Encoder):
    """A multilayer GRU encoder; returns (outputs, final states).

    Defined in notebook 05.
    """

    def __init__(self, vocab_size, embed_size, num_hiddens, num_layers,
                 dropout=0, **kwargs):
        super().__init__(**kwargs)
        self.embedding = nn.Embedding(vocab_size, embed_size)
        self.rnn = nn.GRU(embed_size, num_hiddens, num_layers,
                          dropout=dropout)

    def forward(self, X, valid_len=None, *args):
        # (batch_size, num_steps) -> (num_steps, batch_size, embed_size);
        # transposing the indices first gives a contiguous tensor
        X = self.embedding(X.t())
        if valid_len is None:
            # outputs: (num_steps, batch_size, num_hiddens);
            # state: (num_layers, batch_size, num_hiddens)
            return self.rnn(X)
        # read each sentence up to its valid length (lengths on the CPU)
        packed = pack_padded_sequence(X, valid_len.cpu(),
                                      enforce_sorted=False)
        outputs, state = self.rnn(packed)
        # outputs: (longest valid length, batch_size, num_hiddens), zeros
        # past each sentence's end; state: after each sentence's <eos>
        return pad_packed_sequence(outputs)[0], state


class Seq2SeqDecoder(Decoder):
    """The GRU decoder without attention: a fixed context at every step.

    Defined in notebook 05.
    """

    def __init__(self, vocab_size, embed_size, num_hiddens, num_layers,
                 dropout=0, **kwargs):
        super().__init__(**kwargs)
        self.embedding = nn.Embedding(vocab_size, embed_size)
        self.rnn = nn.GRU(embed_size + num_hiddens, num_hiddens, num_layers,
                          dropout=dropout)
        self.dense = nn.Linear(num_hiddens, vocab_size)

    def init_state(self, enc_outputs, *args):
        hidden = enc_outputs[1]  # (num_layers, batch_size, num_hiddens)
        # the context: the encoder's top-layer final state, kept fixed;
        # (batch_size, num_hiddens)
        return hidden, hidden[-1]

    def forward(self, X, state):
        hidden, context = state
        X = self.embedding(X).permute(1, 0, 2)  # (steps, batch, embed_size)
        # the same context at every step: (steps, batch, num_hiddens)
        repeated = context.expand(X.shape[0], -1, -1)
        output, hidden = self.rnn(torch.cat((X, repeated), dim=2), hidden)
        # (steps, batch, num_hiddens) -> (batch, steps, vocab_size)
        return self.dense(output).permute(1, 0, 2), (hidden, context)


class MaskedSoftmaxCELoss(nn.Module):
    """Per-example cross-entropy over valid positions, / num_steps.

    Defined in notebook 05.
    """

    def forward(self, pred, label, valid_len, num_steps=None):
        # pred: (batch_size, steps, vocab_size); label: (batch_size, steps).
        # (batch_size * steps, vocab_size) against (batch_size * steps,)
        losses = F.cross_entropy(pred.reshape(-1, pred.shape[-1]),
                                 label.reshape(-1), reduction="none")
        losses = sequence_mask(losses.reshape(label.shape), valid_len)
        num_steps = label.shape[1] if num_steps is None else num_steps
        return losses.sum(dim=1) / num_steps  # (batch_size,)


def grad_clipping(net, theta):
    """Scale the gradients in place so their total norm is at most theta.

    Defined in notebook 05.
    """
    params = [p for p in net.parameters() if p.grad is not None]
    torch.nn.utils.clip_grad_norm_(params, theta)


def xavier_init_weights(module):
    """Xavier-initialise the weight matrices of linear and RNN layers.

    Defined in notebook 05.
    """
    if type(module) is nn.Linear:
        nn.init.xavier_uniform_(module.weight)
    if type(module) in (nn.GRU, nn.LSTM):
        for name, param in module.named_parameters():
            if "weight" in name:
                nn.init.xavier_uniform_(param)


class LossCurve:
    """A loss-per-epoch plot, redrawn in place in a notebook.

    Defined in notebook 05.
    """

    def __init__(self, num_epochs, figsize=(3.5, 2.5)):
        self.fig, self.ax = plt.subplots(figsize=figsize)
        self.num_epochs, self.epochs, self.losses = num_epochs, [], []
        self.handle = display(self.fig, display_id=True)
        plt.close(self.fig)  # shown through the handle only

    def add(self, epoch, loss):
        self.epochs.append(epoch)
        self.losses.append(loss)
        self.ax.cla()
        self.ax.plot(self.epochs, self.losses)
        self.ax.set(xlabel="epoch", ylabel="loss", yscale="log",
                    xlim=(1, self.num_epochs))
        if self.handle is not None:  # None outside a notebook
            self.handle.update(self.fig)


def train_epoch_seq2seq(net, data_iter, loss, optimizer, bos, device):
    """Return (summed loss, no. of target tokens) of one epoch.

    Defined in notebook 05.
    """
    total_loss, num_tokens = 0.0, 0
    for X, X_valid_len, Y, Y_valid_len in data_iter:
        num_steps = Y.shape[1]
        # the shortcut: drop the columns that are padding in every target
        Y = Y[:, :int(Y_valid_len.max())]
        X, Y = X.to(device), Y.to(device)
        bos_column = torch.full((Y.shape[0], 1), bos, device=device)
        dec_input = torch.cat([bos_column, Y[:, :-1]], 1)  # teacher forcing
        Y_hat, _ = net(X, dec_input, X_valid_len)
        batch_loss = loss(Y_hat, Y, Y_valid_len, num_steps).sum()
        optimizer.zero_grad()
        batch_loss.backward()
        grad_clipping(net, 1)
        optimizer.step()
        total_loss += batch_loss.item()
        num_tokens += int(Y_valid_len.sum())
    return total_loss, num_tokens


def train_seq2seq(net, data_iter, lr, num_epochs, tgt_vocab, device,
                  plot=True, progress=True):
    """Train net; return the loss of every epoch.

    Defined in notebook 05.
    """
    net.apply(xavier_init_weights)
    net.to(device).train()
    optimizer = torch.optim.Adam(net.parameters(), lr=lr)
    loss, bos = MaskedSoftmaxCELoss(), tgt_vocab["<bos>"]
    curve = LossCurve(num_epochs) if plot else None
    losses = []
    for epoch in tqdm(range(num_epochs), disable=not progress):
        total_loss, num_tokens = train_epoch_seq2seq(
            net, data_iter, loss, optimizer, bos, device)
        losses.append(total_loss / num_tokens)
        if curve is not None and ((epoch + 1) % 10 == 0
                                  or epoch + 1 == num_epochs):
            curve.add(epoch + 1, losses[-1])
    return losses


def encode_source(sentence, src_vocab, num_steps, device):
    """Return (indices (1, num_steps), valid length (1,)) of a sentence.

    Defined in notebook 05.
    """
    tokens = src_vocab[preprocess_nmt(sentence).split()] + [
        src_vocab["<eos>"]]
    valid_len = torch.tensor([min(len(tokens), num_steps)], device=device)
    indices = truncate_pad(tokens, num_steps, src_vocab["<pad>"])
    return torch.tensor([indices], device=device), valid_len


def predict_seq2seq(net, src_sentence, src_vocab, tgt_vocab, num_steps,
                    device, save_attention_weights=False):
    """Return (greedy translation, attention weights of each step).

    Defined in notebook 05.
    """
    if not preprocess_nmt(src_sentence).split():
        return "", []
    net.eval()
    enc_X, enc_valid_len = encode_source(src_sentence, src_vocab, num_steps,
                                         device)
    output_seq, attention_weight_seq = [], []
    with torch.no_grad():
        state = net.decoder.init_state(net.encoder(enc_X, enc_valid_len),
                                       enc_valid_len)
        dec_X = torch.tensor([[tgt_vocab["<bos>"]]], device=device)
        for _ in range(num_steps):
            Y, state = net.decoder(dec_X, state)
            dec_X = Y.argmax(dim=2)  # (1, 1): the most likely next token
            if save_attention_weights:
                attention_weight_seq.append(net.decoder.attention_weights)
            if dec_X.item() == tgt_vocab["<eos>"]:
                break
            output_seq.append(dec_X.item())
    return " ".join(tgt_vocab.to_tokens(output_seq)), attention_weight_seq


def bleu(pred_seq, label_seq, k):
    """Return the BLEU score of pred_seq against label_seq, up to k-grams.

    Defined in notebook 05.
    """
    pred_tokens, label_tokens = pred_seq.split(), label_seq.split()
    len_pred, len_label = len(pred_tokens), len(label_tokens)
    if len_pred == 0:
        return 0.0
    score = math.exp(min(0, 1 - len_label / len_pred))
    for n in range(1, min(k, len_pred) + 1):
        pred_grams = collections.Counter(
            tuple(pred_tokens[i:i + n]) for i in range(len_pred - n + 1))
        label_grams = collections.Counter(
            tuple(label_tokens[i:i + n]) for i in range(len_label - n + 1))
        matches = sum((pred_grams & label_grams).values())  # clipped counts
        score *= (matches / (len_pred - n + 1)) ** (0.5 ** n)
    return score
