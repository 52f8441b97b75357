# generated, do not edit: the #@save cells of
# notebooks/01_masked_softmax.ipynb
# notebooks/05_seq2seq.ipynb

import matplotlib.pyplot as plt
import torch
from IPython.display import display
from matplotlib import ticker

from .language import number, tr, written

__all__ = [
    "NumberFormatter",
    "localize_figure",
    "show_heatmaps",
    "LossCurve",
]


class NumberFormatter(ticker.ScalarFormatter):
    """Tick labels with the decimal point of the language in use.

    spec, if given, formats each tick (number(x, spec)); else matplotlib's
    default formatter chooses the digits. Defined in notebook 01.
    """

    def __init__(self, spec=None):
        super().__init__()
        self.spec = spec

    def __call__(self, x, pos=None):
        if self.spec:
            return number(x, self.spec)
        return written(super().__call__(x, pos))


def localize_figure(fig):
    """Give every Axes fig gets tick labels written by NumberFormatter.

    use_language("pt_BR") makes pyplot call it on each new figure
    (matplotlib's rcParams["figure.hooks"]); a colour bar takes
    format=NumberFormatter(), and an Axes cleared (cla) or put on another
    scale gets matplotlib's formatter back. Defined in notebook 01.
    """
    fig.add_axobserver(_localize_axes)


def _localize_axes(fig):
    """Write the plain tick labels of fig's Axes with NumberFormatter."""
    for ax in fig.axes:
        for axis in (ax.xaxis, ax.yaxis):
            if type(axis.get_major_formatter()) is ticker.ScalarFormatter:
                axis.set_major_formatter(NumberFormatter())


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
            tr(
                "matrices must be 4-D (rows, columns, queries, keys), got "
                "shape {got}",
                got=got,
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
    fig.colorbar(image, ax=axes, shrink=0.6, format=NumberFormatter())
    return fig


class LossCurve:
    """A loss-per-epoch plot on a log scale, redrawn in place in a notebook.

    reference, if given, is (label, loss): a dashed line to compare with.
    Defined in notebook 05.
    """

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
        self.ax.plot(self.epochs, self.losses, label=tr("training"))
        if self.reference is not None:
            label, value = self.reference
            self.ax.axhline(value, color="tab:red", ls="--", label=label)
            self.ax.legend(fontsize=8)
        self.ax.set(
            xlabel=tr("epoch"),
            ylabel=tr("cross-entropy per target token"),
            yscale="log",
            xlim=(1, self.num_epochs),
        )
        # plain numbers at 0.1, 0.2, 0.5, 1, 2, 5 ...
        self.ax.yaxis.set_major_locator(ticker.LogLocator(subs=(1, 2, 5)))
        self.ax.yaxis.set_major_formatter(NumberFormatter("g"))
        self.ax.xaxis.set_major_formatter(NumberFormatter())  # after cla()
        self.ax.yaxis.set_minor_formatter(ticker.NullFormatter())
        if self.handle is not None:  # None outside a notebook
            self.handle.update(self.fig)
