# generated, do not edit: the #@save cells of
# notebooks/01_masked_softmax.ipynb
# notebooks/05_seq2seq.ipynb

import matplotlib.pyplot as plt
import torch
from IPython.display import display
from matplotlib import ticker

from .checks import Messages

__all__ = [
    "show_heatmaps",
    "LossCurve",
]


def show_heatmaps(
    matrices, xlabel, ylabel, titles=None, figsize=(2.5, 2.5), cmap="Reds"
):
    """Return a figure with one heatmap per matrix of a 4-D tensor.

    matrices has shape (no. of rows, no. of columns, no. of queries,
    no. of keys); the colour scale is fixed to 0..1, the range of
    attention weights. Defined in notebook 01.
    """
    matrices = torch.as_tensor(matrices).detach().float().cpu()
    if matrices.dim() != 4:
        got = tuple(matrices.shape)
        raise ValueError(
            Messages.say(
                "matrices must be 4-D (rows, columns, queries, keys), "
                f"got shape {got}",
                "matrices precisa ser 4-D (linhas, colunas, consultas, "
                f"chaves); o formato recebido foi {got}",
            )
        )
    num_rows, num_cols, num_queries, num_keys = matrices.shape
    fig, axes = plt.subplots(
        num_rows,
        num_cols,
        figsize=figsize,
        sharex=True,
        sharey=True,
        squeeze=False,
    )
    for i in range(num_rows):
        for j in range(num_cols):
            ax = axes[i, j]
            image = ax.imshow(
                matrices[i, j].numpy(), cmap=cmap, vmin=0, vmax=1
            )
            # a tick at every index up to 16, else a few whole numbers
            for axis, size in [(ax.xaxis, num_keys), (ax.yaxis, num_queries)]:
                axis.set_major_locator(
                    ticker.MaxNLocator(
                        min(size, 16), integer=True, min_n_ticks=1
                    )
                )
            if i == num_rows - 1:
                ax.set_xlabel(xlabel)
            if j == 0:
                ax.set_ylabel(ylabel)
            if titles:
                ax.set_title(titles[j])
    fig.colorbar(image, ax=axes, shrink=0.6)
    return fig


class LossCurve:
    """A loss-per-epoch plot on a log scale, redrawn in place in a notebook.

    reference, if given, is (label, loss): a dashed line to compare with.
    Defined in notebook 05.
    """

    # what the figure says; a notebook in another language sets its own
    labels = {
        "epoch": "epoch",
        "loss": "cross-entropy per target token",
        "training": "training",
    }

    def __init__(self, num_epochs, figsize=(3.5, 2.5), reference=None):
        self.fig, self.ax = plt.subplots(figsize=figsize)
        self.num_epochs, self.epochs, self.losses = num_epochs, [], []
        self.reference = reference
        self.handle = display(self.fig, display_id=True)
        plt.close(self.fig)  # shown through the handle only

    def add(self, epoch, loss):
        self.epochs.append(epoch)
        self.losses.append(loss)
        self.ax.cla()
        self.ax.plot(self.epochs, self.losses, label=self.labels["training"])
        if self.reference is not None:
            label, value = self.reference
            self.ax.axhline(value, color="tab:red", ls="--", label=label)
            self.ax.legend(fontsize=8)
        self.ax.set(
            xlabel=self.labels["epoch"],
            ylabel=self.labels["loss"],
            yscale="log",
            xlim=(1, self.num_epochs),
        )
        # plain numbers at 0.1, 0.2, 0.5, 1, 2, 5 ...
        self.ax.yaxis.set_major_locator(ticker.LogLocator(subs=(1, 2, 5)))
        self.ax.yaxis.set_major_formatter(ticker.FormatStrFormatter("%g"))
        self.ax.yaxis.set_minor_formatter(ticker.NullFormatter())
        if self.handle is not None:  # None outside a notebook
            self.handle.update(self.fig)
