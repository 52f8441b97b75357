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
    "draw_pooling_diagram",
    "draw_attention_pooling",
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


def draw_pooling_diagram():
    """Return a figure of attention pooling: scores, weights, average.

    Defined in notebook 01.
    """
    fig, ax = plt.subplots(figsize=(8.4, 3.0))
    ax.set(xlim=(0, 10), ylim=(0, 5.2))
    ax.axis("off")
    box = {"boxstyle": "round,pad=0.3", "facecolor": "white"}
    arrow = {"arrowstyle": "->", "color": "gray"}
    ax.text(
        0.6,
        2.0,
        r"$\mathbf{q}$",
        ha="center",
        va="center",
        size=14,
        bbox={**box, "facecolor": "#fde0c5"},
    )
    ax.text(0.6, 1.3, tr("query"), ha="center", size=9)
    for y, i in [(4.3, "1"), (3.0, "2"), (0.9, "m")]:  # keys 1, 2 and m
        ax.text(
            2.4,
            y,
            rf"$\mathbf{{k}}_{i}$",
            ha="center",
            va="center",
            size=12,
            bbox={**box, "facecolor": "#d6e4f0"},
        )
        ax.annotate("", (3.3, y), (2.85, y), arrowprops=arrow)
        ax.annotate("", (3.3, y), (0.95, 2.0), arrowprops=arrow)
        ax.text(
            4.1,
            y,
            rf"$a(\mathbf{{q}}, \mathbf{{k}}_{i})$",
            ha="center",
            va="center",
            size=11,
            bbox=box,
        )
        ax.annotate("", (5.45, y), (4.95, y), arrowprops=arrow)
        ax.text(
            6.1,
            y,
            rf"$\alpha_{i}$",
            ha="center",
            va="center",
            size=12,
            bbox={**box, "facecolor": "#f6c1b6"},
        )
        ax.text(
            7.3,
            y,
            rf"$\times\ \mathbf{{v}}_{i}$",
            ha="center",
            va="center",
            size=12,
            bbox={**box, "facecolor": "#d9ead3"},
        )
        ax.annotate("", (8.85, 2.6), (7.85, y), arrowprops=arrow)
    for x in (2.4, 4.1, 6.1, 7.3):
        ax.text(x, 1.95, r"$\vdots$", ha="center", va="center", size=12)
    ax.text(
        9.4,
        2.6,
        r"$\sum$",
        ha="center",
        va="center",
        size=14,
        bbox={**box, "facecolor": "#fde0c5"},
    )
    ax.text(9.4, 1.9, tr("output"), ha="center", size=9)
    heads = [
        (2.4, tr("keys")),
        (4.1, tr("1. scores")),
        (6.1, tr("2. weights: softmax\nof all the scores")),
        (7.3, tr("values")),
        (9.4, tr("3. weighted\naverage")),
    ]
    for x, text in heads:
        ax.text(x, 5.0, text, ha="center", va="bottom", size=9)
    fig.tight_layout()
    return fig


def draw_attention_pooling(query, keys, values, scores, weights, output):
    """Return a figure of 1-D attention pooling: scores, weights, average.

    Defined in notebook 01.
    """
    fig, axes = plt.subplots(1, 3, figsize=(8.4, 2.8))
    axes[0].bar(keys, scores, color="tab:gray")
    axes[0].set(
        title=tr("1. scores $a(q, k_i)$"), ylabel=tr("score (0 is best)")
    )
    axes[1].bar(keys, weights, color="tab:red")
    axes[1].set(
        title=tr(r"2. softmax: weights $\alpha_i$"),
        ylim=(0, 1),
        ylabel=tr("weight"),
    )
    axes[2].scatter(keys, values, s=8, color="black", label=tr("values $v_i$"))
    axes[2].scatter(
        keys,
        values,
        s=500 * weights,
        color="tab:blue",
        alpha=0.5,
        label=tr(r"area $\propto \alpha_i$"),
    )
    axes[2].axhline(
        output,
        color="tab:red",
        label=tr(
            r"output $\sum_i \alpha_i v_i$ = {output:.2f}",
            output=float(output),
        ),
    )
    axes[2].set(title=tr("3. weighted average"), ylabel=tr("value"))
    axes[2].legend(fontsize=8, loc="upper left")
    for ax in axes:
        ax.xaxis.set_major_locator(ticker.MaxNLocator(integer=True))
        ax.axvline(query, color="black", linestyle=":", linewidth=1)
        ax.set_xlabel(tr("key position $k_i$ (dotted: the query)"))
    fig.tight_layout()
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
