# generated from notebooks/05_bahdanau_attention.ipynb, do not edit

import collections
import contextlib
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
from .additive_attention import AdditiveAttention
from .masked_softmax import sequence_mask

__all__ = [
    "find_data_file",
    "read_data_nmt",
    "preprocess_nmt",
    "tokenize_nmt",
    "Vocab",
    "truncate_pad",
    "build_array_nmt",
    "BatchIterator",
    "load_data_nmt",
    "Encoder",
    "Decoder",
    "EncoderDecoder",
    "Seq2SeqEncoder",
    "Seq2SeqDecoder",
    "MaskedSoftmaxCELoss",
    "grad_clipping",
    "xavier_init_weights",
    "train_epoch_seq2seq",
    "LossCurve",
    "train_seq2seq",
    "cpu_threads",
    "encode_source",
    "predict_seq2seq",
    "bleu",
    "AttentionDecoder",
    "mask_bias",
    "layer_weights",
    "Seq2SeqAttentionDecoder",
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


class BatchIterator:
    """Iterable of minibatches of equally long tensors, reshuffled per pass.

    Defined in notebook 05.
    """

    def __init__(self, tensors, batch_size, shuffle=True):
        self.tensors, self.batch_size = tensors, batch_size
        self.shuffle = shuffle

    def __len__(self):
        return math.ceil(len(self.tensors[0]) / self.batch_size)

    def __iter__(self):
        n = len(self.tensors[0])
        order = torch.randperm(n) if self.shuffle else torch.arange(n)
        for start in range(0, n, self.batch_size):
            rows = order[start:start + self.batch_size]
            yield tuple(tensor[rows] for tensor in self.tensors)


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
    tensors = (src_array, src_valid_len, tgt_array, tgt_valid_len)
    return BatchIterator(tensors, batch_size), src_vocab, tgt_vocab


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
    """The GRU decoder without attention (fixed context). Notebook 05."""

    def __init__(self, vocab_size, embed_size, num_hiddens, num_layers,
                 dropout=0, **kwargs):
        super().__init__(**kwargs)
        self.embedding = nn.Embedding(vocab_size, embed_size)
        self.rnn = nn.GRU(embed_size + num_hiddens, num_hiddens, num_layers,
                          dropout=dropout)
        self.dense = nn.Linear(num_hiddens, vocab_size)

    def init_state(self, enc_outputs, *args):
        return enc_outputs[1]  # (num_layers, batch_size, num_hiddens)

    def forward(self, X, state):
        X = self.embedding(X).permute(1, 0, 2)  # (steps, batch, embed_size)
        # the top layer's state, repeated: (steps, batch, num_hiddens)
        context = state[-1].repeat(X.shape[0], 1, 1)
        output, state = self.rnn(torch.cat((X, context), dim=2), state)
        # (steps, batch, num_hiddens) -> (batch, steps, vocab_size)
        return self.dense(output).permute(1, 0, 2), state


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
    # the norm of all gradients as one vector, in two multi-tensor calls
    norm = torch.nn.utils.get_total_norm([p.grad for p in params],
                                         foreach=True)
    # multiplies by min(1, theta / norm), a tensor: no host sync
    torch.nn.utils.clip_grads_with_norm_(params, theta, norm, foreach=True)


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


def train_epoch_seq2seq(net, data_iter, loss, optimizer, bos, device):
    """Return (summed loss, no. of tokens) of one epoch, on the device.

    Defined in notebook 05.
    """
    total = torch.zeros(2, device=device)
    for X, X_valid_len, Y, Y_valid_len in data_iter:
        num_steps = Y.shape[1]
        keep = int(Y_valid_len.max())  # on the CPU: no device sync
        # valid lengths stay on the CPU, where packing wants them; the masks
        # copy them to the device
        X, Y = X.to(device), Y[:, :keep].to(device)
        bos_column = torch.full((Y.shape[0], 1), bos, device=device)
        dec_input = torch.cat([bos_column, Y[:, :-1]], 1)  # teacher forcing
        Y_hat, _ = net(X, dec_input, X_valid_len)
        batch_loss = loss(Y_hat, Y, Y_valid_len, num_steps).sum()
        optimizer.zero_grad(set_to_none=True)
        batch_loss.backward()
        grad_clipping(net, 1)
        optimizer.step()
        num_tokens = Y_valid_len.sum().to(device, batch_loss.dtype)
        total += torch.stack([batch_loss.detach(), num_tokens])
    return total


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


def train_seq2seq(net, data_iter, lr, num_epochs, tgt_vocab, device,
                  plot=True, progress=True, num_threads=1):
    """Train net; return the loss of every epoch.

    On a CPU, num_threads threads are used while training (None: as set).
    Defined in notebook 05.
    """
    device = torch.device(device)
    with cpu_threads(num_threads if device.type == "cpu" else None):
        return _train_seq2seq(net, data_iter, lr, num_epochs, tgt_vocab,
                              device, plot, progress)


@contextlib.contextmanager
def cpu_threads(num_threads):
    """Run the body with num_threads CPU threads (None: unchanged).

    Defined in notebook 05.
    """
    before = torch.get_num_threads()
    if num_threads is not None:
        torch.set_num_threads(num_threads)
    try:
        yield
    finally:
        torch.set_num_threads(before)


def _train_seq2seq(net, data_iter, lr, num_epochs, tgt_vocab, device, plot,
                   progress):
    """Return the loss of every epoch of training net (see train_seq2seq)."""
    net.apply(xavier_init_weights)
    net.to(device)
    optimizer = torch.optim.Adam(net.parameters(), lr=lr, fused=True)
    loss, bos = MaskedSoftmaxCELoss(), tgt_vocab["<bos>"]
    curve = LossCurve(num_epochs) if plot else None
    net.train()
    sums, history = [], []
    for epoch in tqdm(range(num_epochs), disable=not progress):
        sums.append(train_epoch_seq2seq(net, data_iter, loss, optimizer,
                                        bos, device))
        if (epoch + 1) % 10 == 0 or epoch + 1 == num_epochs:
            recent = torch.stack(sums[len(history):])  # one read per 10
            history += (recent[:, 0] / recent[:, 1]).tolist()
            if curve is not None:
                curve.add(epoch + 1, history[-1])
    return history


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


class AttentionDecoder(Decoder):
    """The base interface of decoders with attention. Notebook 05."""

    @property
    def attention_weights(self):
        raise NotImplementedError


def mask_bias(keys, valid_lens):
    """Return (batch, no. of keys): 0 if valid, the lowest float if not.

    Defined in notebook 05.
    """
    batch_size, num_keys = keys.shape[:2]
    bias = keys.new_zeros(batch_size, num_keys)
    if valid_lens is None:
        return bias
    # every source holds at least <eos>, so no row is fully masked
    return sequence_mask(bias, valid_lens, torch.finfo(keys.dtype).min)


def layer_weights(rnn, layer):
    """Return (W_ih, W_hh, b_ih, b_hh) of one layer of an nn.GRU/nn.LSTM.

    Defined in notebook 05.
    """
    return tuple(getattr(rnn, f"{name}_l{layer}") for name in
                 ("weight_ih", "weight_hh", "bias_ih", "bias_hh"))


class Seq2SeqAttentionDecoder(AttentionDecoder):
    """GRU decoder with Bahdanau (additive) attention.

    Same parameters and state as the book's; faster forward.
    Defined in notebook 05.
    """

    def __init__(self, vocab_size, embed_size, num_hiddens, num_layers,
                 dropout=0, **kwargs):
        super().__init__(**kwargs)
        self.attention = AdditiveAttention(num_hiddens, num_hiddens,
                                           num_hiddens, dropout)
        self.embedding = nn.Embedding(vocab_size, embed_size)
        self.rnn = nn.GRU(embed_size + num_hiddens, num_hiddens, num_layers,
                          dropout=dropout)
        self.dense = nn.Linear(num_hiddens, vocab_size)

    def init_state(self, enc_outputs, enc_valid_lens, *args):
        outputs, hidden_state = enc_outputs
        # outputs: (num_steps, batch, hiddens) -> (batch, num_steps, hiddens)
        return outputs.permute(1, 0, 2), hidden_state, enc_valid_lens

    def forward(self, X, state):
        enc_outputs, hidden_state, enc_valid_lens = state
        X = self.embedding(X).permute(1, 0, 2)  # (steps, batch, embed_size)
        attend = self.attention_step(enc_outputs, enc_valid_lens)
        hidden = self.hidden_list(hidden_state)
        self._layers = [layer_weights(self.rnn, layer)
                        for layer in range(self.rnn.num_layers)]
        outputs, self._attention_weights = [], []
        for x in X:
            context, weights = attend(self.query_of(hidden))
            self._attention_weights.append(weights)  # (batch, 1, keys)
            # input (batch, num_hiddens + embed_size)
            hidden = self.rnn_step(torch.cat((context, x), dim=-1), hidden)
            outputs.append(self.query_of(hidden))  # (batch, num_hiddens)
        # (batch, steps, num_hiddens) -> (batch, steps, vocab_size)
        outputs = self.dense(torch.stack(outputs, dim=1))
        return outputs, [enc_outputs, self.hidden_tensor(hidden),
                         enc_valid_lens]

    @property
    def attention_weights(self):
        return self._attention_weights

    def attention_step(self, enc_outputs, enc_valid_lens):
        """Return attend(query) -> (context, weights) for these keys."""
        att = self.attention
        # tanh(u) = 2 sigmoid(2u) - 1: with W_k, W_q, w_v doubled, a sigmoid
        # gives scores shifted by a constant, which the softmax ignores
        keys = F.linear(enc_outputs, 2 * att.W_k.weight)  # (batch, keys, hid)
        W_q, w_v = 2 * att.W_q.weight, 2 * att.w_v.weight[0]
        bias = mask_bias(enc_outputs, enc_valid_lens)  # (batch, keys)

        def attend(query):  # query: (batch, num_hiddens)
            # (batch, 1, hid) + (batch, keys, hid) -> (batch, keys, hid);
            # @ (hid,) -> scores (batch, keys)
            features = torch.sigmoid(keys + F.linear(query, W_q).unsqueeze(1))
            weights = torch.softmax(features @ w_v + bias, dim=-1)
            dropped = F.dropout(weights, att.dropout.p, self.training)
            # (batch, keys, 1) * (batch, keys, hid), summed -> (batch, hid)
            context = (dropped.unsqueeze(2) * enc_outputs).sum(dim=1)
            return context, weights.unsqueeze(1)  # weights: (batch, 1, keys)

        return attend

    def hidden_list(self, hidden_state):
        """Return the state as a list of (batch, hiddens), one per layer."""
        return list(hidden_state.unbind(0))

    def hidden_tensor(self, hidden):
        """Return the per-layer list as (num_layers, batch, hiddens)."""
        return torch.stack(hidden)

    def query_of(self, hidden):
        """Return the top layer's state, the attention query."""
        return hidden[-1]

    def rnn_step(self, x, hidden):
        """Return the per-layer states after one step of the stacked GRU."""
        new = []
        for layer, h in enumerate(hidden):
            if layer > 0:  # nn.GRU's dropout between layers
                x = F.dropout(x, self.rnn.dropout, self.training)
            x = torch.gru_cell(x, h, *self._layers[layer])
            new.append(x)
        return new
