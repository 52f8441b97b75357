"""The language of the package (d2l_attention/language.py): messages from
the catalogs, numbers as each language writes them, in text and figures."""

import matplotlib
import polib
import pytest
import torch

from d2l_attention import (
    LossCurve,
    NumberFormatter,
    language,
    number,
    show_heatmaps,
    tr,
    use_language,
)

matplotlib.use("Agg")


@pytest.fixture(autouse=True)
def no_figure_left():
    """Close the figures a test drew."""
    yield
    import matplotlib.pyplot as plt

    plt.close("all")


@pytest.mark.parametrize(
    "value, spec, english, portuguese",
    [
        (0.35, ".2f", "0.35", "0,35"),
        (2097152, ",", "2,097,152", "2.097.152"),
        (41.94, ".1f", "41.9", "41,9"),
        (-0.5, "+.2f", "-0.50", "-0,50"),
        (0.221, ".1%", "22.1%", "22,1%"),
        (1000, "", "1000", "1000"),
        ([0.5, 1.25], ".2f", "[0.50, 1.25]", "[0,50; 1,25]"),
        ([[1.5], [2.0]], "g", "[[1.5], [2]]", "[[1,5]; [2]]"),
    ],
)
def test_a_number_is_written_each_languages_way(
    value, spec, english, portuguese
):
    assert number(value, spec) == english
    use_language("pt_BR")
    try:
        assert number(value, spec) == portuguese
    finally:
        use_language("en")


def test_a_message_is_translated_its_numbers_written_the_brazilian_way(
    portuguese,
):
    message = tr(
        "with valid_len = {n}, the entries sum to {total:.3f}, not 1: "
        "normalise over the first valid_len scores only",
        n=3,
        total=0.5,
    )
    assert message.startswith("com valid_len = 3, as entradas somam 0,500")
    # a shape, a list or a tensor's dtype is code: Python's notation
    assert tr("{got}", got=(2, 3)) == "(2, 3)"
    assert tr("{got}", got=[1.5, 2.0]) == "[1.5, 2.0]"
    assert tr("{flag}", flag=True) == "True"


def test_an_unknown_message_stays_english_numbers_still_brazilian(
    portuguese,
):
    assert tr("no such message, {x:.1f}", x=0.5) == "no such message, 0,5"


def fake_catalog(tmp_path, monkeypatch, entries):
    """Point the package at a pt_BR catalog of entries (msgid, msgstr,
    flags)."""
    po = polib.POFile()
    po.metadata = {"Content-Type": "text/plain; charset=UTF-8"}
    for msgid, msgstr, flags in entries:
        po.append(polib.POEntry(msgid=msgid, msgstr=msgstr, flags=flags))
    (tmp_path / "pt_BR").mkdir()
    po.save(str(tmp_path / "pt_BR" / "d2l_attention.po"))
    monkeypatch.setattr(language, "LOCALE", tmp_path)


def test_a_fuzzy_or_empty_translation_is_not_used(tmp_path, monkeypatch):
    fake_catalog(
        tmp_path,
        monkeypatch,
        [
            ("epoch", "época", []),
            ("training", "treino", ["fuzzy"]),
            ("loss", "", []),
        ],
    )
    use_language("pt_BR")
    try:
        assert [tr(m) for m in ("epoch", "training", "loss")] == [
            "época",
            "training",
            "loss",
        ]
    finally:
        use_language("en")
    assert tr("epoch") == "epoch"


def test_a_missing_catalog_is_named(tmp_path, monkeypatch):
    monkeypatch.setattr(language, "LOCALE", tmp_path)
    with pytest.raises(FileNotFoundError, match="pt_BR/d2l_attention.po"):
        use_language("pt_BR")
    assert tr("epoch") == "epoch"  # English still


def tick_labels(fig):
    """Return the text of every tick label of a drawn figure."""
    fig.canvas.draw()
    return [
        label.get_text()
        for ax in fig.axes
        for axis in (ax.xaxis, ax.yaxis)
        for label in axis.get_ticklabels()
        if label.get_text()
    ]


def test_the_heatmaps_colour_bar_is_written_the_brazilian_way(portuguese):
    fig = show_heatmaps(torch.rand(1, 1, 3, 4), "chaves", "consultas")
    labels = tick_labels(fig)
    assert "0,25" in labels and not [t for t in labels if "." in t], labels
    use_language("en")
    assert "0.25" in tick_labels(show_heatmaps(torch.rand(1, 1, 3, 4), "", ""))


def test_the_loss_curve_speaks_portuguese(portuguese):
    curve = LossCurve(3)  # half epochs between the ticks: 1,5 and 2,5
    for epoch, loss in enumerate([2.0, 1.0, 0.3], start=1):
        curve.add(epoch, loss)
    ax = curve.ax
    assert ax.get_xlabel() == "época"
    assert ax.get_ylabel() == "entropia cruzada por token de destino"
    assert ax.get_legend_handles_labels()[1] == ["treino"]
    labels = tick_labels(curve.fig)
    assert "0,5" in labels and "1,5" in labels, labels
    assert not [label for label in labels if "." in label], labels


def test_a_formatter_with_a_spec_writes_each_tick_by_it(portuguese):
    assert NumberFormatter("g")(0.25) == "0,25"
    assert NumberFormatter(".1f")(2) == "2,0"


def test_a_figure_pyplot_makes_is_written_the_brazilian_way(portuguese):
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots()
    ax.plot([0, 0.5, 1], [0, 0.25, 1])
    labels = tick_labels(fig)
    assert "0,2" in labels and not [t for t in labels if "." in t], labels
    use_language("en")
    fig, ax = plt.subplots()
    ax.plot([0, 0.5, 1], [0, 0.25, 1])
    assert "0.2" in tick_labels(fig)
    assert matplotlib.rcParams["figure.hooks"] == []
