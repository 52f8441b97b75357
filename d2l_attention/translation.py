# generated, do not edit: the #@save cells of
# notebooks/05_seq2seq.ipynb

import collections
import math

import torch

from .nmt_data import preprocess_nmt, truncate_pad

__all__ = [
    "encode_source",
    "predict_seq2seq",
    "bleu",
]


def encode_source(sentence, src_vocab, num_steps, device):
    """Return (indices (1, num_steps), valid length (1,)) of a sentence.

    Defined in notebook 05.
    """
    tokens = src_vocab[preprocess_nmt(sentence).split()] + [src_vocab["<eos>"]]
    valid_len = torch.tensor([min(len(tokens), num_steps)], device=device)
    indices = truncate_pad(tokens, num_steps, src_vocab["<pad>"])
    return torch.tensor([indices], device=device), valid_len


def predict_seq2seq(
    net,
    src_sentence,
    src_vocab,
    tgt_vocab,
    num_steps,
    device,
    save_attention_weights=False,
):
    """Return (greedy translation, attention weights of each step).

    Defined in notebook 05.
    """
    if not preprocess_nmt(src_sentence).split():
        return "", []
    net.eval()
    enc_X, enc_valid_len = encode_source(
        src_sentence, src_vocab, num_steps, device
    )
    output_seq, attention_weight_seq = [], []
    with torch.no_grad():
        state = net.decoder.init_state(
            net.encoder(enc_X, enc_valid_len), enc_valid_len
        )
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
            tuple(pred_tokens[i : i + n]) for i in range(len_pred - n + 1)
        )
        label_grams = collections.Counter(
            tuple(label_tokens[i : i + n]) for i in range(len_label - n + 1)
        )
        matches = sum((pred_grams & label_grams).values())  # clipped counts
        score *= (matches / (len_pred - n + 1)) ** (0.5**n)
    return score
