# generated, do not edit: the #@save cells of
# notebooks/05_seq2seq.ipynb

import collections
import hashlib
import re
from pathlib import Path

import torch

from .language import tr

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


def find_data_file():
    """Return the path of data/fra-eng-first-5000.txt; raise if absent.

    Looks in the data/ folder of the working folder or of the nearest
    folder above it (the project's, from the project or its notebooks/).
    Defined in notebook 05.
    """
    name = "fra-eng-first-5000.txt"  # the excerpt that ships in data/
    here = Path.cwd().resolve()
    for folder in [here, *here.parents]:
        if (folder / "data" / name).is_file():
            return folder / "data" / name
    raise FileNotFoundError(
        tr(
            "the English-French pairs data/{name} are neither in {here} nor "
            "in a folder above it: run the notebook inside the project "
            "folder, or restore the file there with `git checkout -- "
            "data/{name}`",
            name=name,
            here=here,
        )
    )


def _check_corpus(data, path):
    """Raise ValueError unless data holds the excerpt's bytes as shipped.

    Defined in notebook 05.
    """
    # SHA-256 of data/fra-eng-first-5000.txt, its lines ending in "\n"
    shipped = (
        "2d3060f80d80b26ceb3e89a733f7b4730c197548c96aa692a4d6d94b274bb49b"
    )
    if hashlib.sha256(data).hexdigest() == shipped:
        return
    problem = (
        tr("is empty")
        if not data
        else tr("has Windows line endings (CRLF)")
        if b"\r\n" in data
        else tr("was edited or damaged")
    )
    raise ValueError(
        tr(
            "{path} {problem}: it is not the excerpt the notebooks were made "
            "with; restore it with `git checkout -- data/{name}` in the "
            "project folder",
            path=path,
            problem=problem,
            name=path.name,
        )
    )


def read_data_nmt():
    """Return the text of the English-French excerpt, checked first.

    Defined in notebook 05.
    """
    path = find_data_file()
    data = path.read_bytes()
    _check_corpus(data, path)
    return data.decode("utf-8")


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
            token for line in tokens or [] for token in line
        )
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
    rows = [
        truncate_pad(vocab[line] + [vocab["<eos>"]], num_steps, vocab["<pad>"])
        for line in lines
    ]
    array = torch.tensor(rows, dtype=torch.long)  # (no. of lines, num_steps)
    valid_len = (array != vocab["<pad>"]).sum(dim=1)  # (no. of lines,)
    return array, valid_len


def load_array(data_arrays, batch_size, is_train=True):
    """Return a DataLoader over tensors, shuffled when is_train.

    Defined in notebook 05.
    """
    dataset = torch.utils.data.TensorDataset(*data_arrays)
    return torch.utils.data.DataLoader(dataset, batch_size, shuffle=is_train)


def load_data_nmt(batch_size, num_steps, num_examples=600):
    """Return (minibatch iterator, source vocab, target vocab).

    Defined in notebook 05.
    """
    text = preprocess_nmt(read_data_nmt())
    source, target = tokenize_nmt(text, num_examples)
    reserved = ["<pad>", "<bos>", "<eos>"]
    src_vocab = Vocab(source, min_freq=2, reserved_tokens=reserved)
    tgt_vocab = Vocab(target, min_freq=2, reserved_tokens=reserved)
    src_array, src_valid_len = build_array_nmt(source, src_vocab, num_steps)
    tgt_array, tgt_valid_len = build_array_nmt(target, tgt_vocab, num_steps)
    data_arrays = (src_array, src_valid_len, tgt_array, tgt_valid_len)
    return load_array(data_arrays, batch_size), src_vocab, tgt_vocab
