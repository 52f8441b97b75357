# generated, do not edit: the #@save cells of
# notebooks/05_seq2seq.ipynb

import torch
from torch import nn
from tqdm.auto import tqdm

from .language import tr
from .loss import MaskedSoftmaxCELoss
from .plotting import LossCurve

__all__ = [
    "grad_clipping",
    "xavier_init_weights",
    "train_epoch_seq2seq",
    "train_seq2seq",
]


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


def train_epoch_seq2seq(net, data_iter, loss, optimizer, bos, device):
    """Return (summed cross-entropy, no. of target tokens) of one epoch.

    Defined in notebook 05.
    """
    total_loss, num_tokens = 0.0, 0
    for X, X_valid_len, Y, Y_valid_len in data_iter:
        num_steps = Y.shape[1]
        # the shortcut: drop the columns that are padding in every target
        Y = Y[:, : int(Y_valid_len.max())]
        X, Y = X.to(device), Y.to(device)
        bos_column = torch.full((Y.shape[0], 1), bos, device=device)
        dec_input = torch.cat([bos_column, Y[:, :-1]], 1)  # teacher forcing
        Y_hat, _ = net(X, dec_input, X_valid_len)
        # the book's loss: each sentence's cross-entropy / num_steps
        batch_loss = loss(Y_hat, Y, Y_valid_len, num_steps).sum()
        optimizer.zero_grad()
        batch_loss.backward()
        grad_clipping(net, 1)
        optimizer.step()
        total_loss += batch_loss.item() * num_steps
        num_tokens += int(Y_valid_len.sum())
    return total_loss, num_tokens


def train_seq2seq(
    net,
    data_iter,
    lr,
    num_epochs,
    tgt_vocab,
    device,
    plot=True,
    progress=True,
    reference=None,
):
    """Train net; return its cross-entropy per target token, every epoch.

    The curve shows it at epoch 1 and then every tenth; reference, if
    given, is a (label, loss) line drawn on it. Defined in notebook 05.
    """
    net.apply(xavier_init_weights)
    net.to(device).train()
    optimizer = torch.optim.Adam(net.parameters(), lr=lr)
    loss, bos = MaskedSoftmaxCELoss(), tgt_vocab["<bos>"]
    curve = LossCurve(num_epochs, reference=reference) if plot else None
    losses = []
    epochs = tqdm(
        range(num_epochs),
        desc=tr("training"),
        unit=tr("epoch"),
        disable=not progress,
    )
    for epoch in epochs:
        total_loss, num_tokens = train_epoch_seq2seq(
            net, data_iter, loss, optimizer, bos, device
        )
        losses.append(total_loss / num_tokens)
        if curve is not None and (
            epoch == 0 or (epoch + 1) % 10 == 0 or epoch + 1 == num_epochs
        ):
            curve.add(epoch + 1, losses[-1])
    return losses
