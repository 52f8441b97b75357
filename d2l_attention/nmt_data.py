# generated, do not edit: the #@save cells of
# notebooks/05_seq2seq.ipynb

import collections
import re
from pathlib import Path
import torch

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
]


def find_data_file(data_dir=None):
    """Return the path of fra-eng/fra.txt; raise FileNotFoundError if absent.

    Looks in data_dir when given, else in the data/ folder of the working
    folder or of the nearest folder above it that has the file (the
    project's, from the project or its notebooks/). Defined in notebook 05.
    """
    if data_dir is not None:
        folders = [Path(data_dir)]
    else:
        here = Path.cwd().resolve()
        folders = [folder / "data" for folder in [here, *here.parents]]
    for folder in folders:
        path = folder / "fra-eng" / "fra.txt"
        if path.is_file():
            return path
    where = folders[0] if data_dir is not None else (
        f"data/ in {folders[0].parent} or a folder above it")
    raise FileNotFoundError(
        f"the English-French corpus fra-eng/fra.txt is not in {where}: run "
        "`make data` in the project folder (offline: "
        "FRA_ENG_ZIP=/path/to/fra-eng.zip make data)")


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
