"""lab_driver.py: the parts that need no browser."""

import socket

import pytest

from tests.browser import lab_driver
from tools import project


def test_free_port_can_be_bound():
    port = lab_driver.free_port()
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", port))


def test_notebooks_are_served_from_a_copy(tmp_path):
    served = lab_driver.copy_notebooks([], tmp_path)
    names = sorted(
        p.relative_to(served).as_posix() for p in served.rglob("*.ipynb")
    )
    assert names == sorted(
        p.relative_to(lab_driver.NOTEBOOKS).as_posix()
        for p in lab_driver.NOTEBOOKS.rglob("*.ipynb")
    )
    assert "pt_BR/01_masked_softmax.ipynb" in names
    assert served.resolve() != lab_driver.NOTEBOOKS.resolve()
    assert (tmp_path / "data").resolve() == (
        lab_driver.ROOT / "data"
    ).resolve()


def test_each_edition_is_tested_in_its_language(tmp_path):
    english = sorted(lab_driver.NOTEBOOKS.glob("*.ipynb"))
    portuguese = sorted(project.NOTEBOOKS_PT.glob("*.ipynb"))
    assert english and len(portuguese) == len(english)
    assert {project.language(p) for p in english} == {"en"}
    assert {project.language(p) for p in portuguese} == {"pt_BR"}
    assert lab_driver.served_name(portuguese[0]) == (
        "pt_BR/" + portuguese[0].name
    )
    # a notebook from elsewhere is served by its name, in English
    other = tmp_path / "pt_BR_copy.ipynb"
    other.write_text("{}")
    assert lab_driver.served_name(other) == "pt_BR_copy.ipynb"
    assert project.language(other) == "en"
    served = lab_driver.copy_notebooks([other], tmp_path)
    assert (served / "pt_BR_copy.ipynb").read_text() == "{}"


def test_the_portuguese_server_sets_the_locale(tmp_path):
    # make lab-pt's setting, used by the test as it is
    setting = "@jupyterlab/translation-extension/plugin.jupyterlab-settings"
    lab_driver.write_lab_settings(tmp_path / "en")
    lab_driver.write_lab_settings(tmp_path / "pt", "pt_BR")
    assert not (tmp_path / "en" / setting).exists()
    assert '"locale": "pt_BR"' in (tmp_path / "pt" / setting).read_text()
    for name in lab_driver.LAB_SETTINGS:
        assert (tmp_path / "pt" / name).exists()


def test_a_notebook_from_elsewhere_replaces_its_namesake(tmp_path):
    other = tmp_path / "elsewhere" / "01_masked_softmax.ipynb"
    other.parent.mkdir()
    other.write_text("{}")
    served = lab_driver.copy_notebooks([other], tmp_path / "work")
    assert lab_driver.served_name(other) == "01_masked_softmax.ipynb"
    assert (served / "01_masked_softmax.ipynb").read_text() == "{}"


@pytest.mark.parametrize(
    "text",
    [
        "<Figure size 640x480 with 1 Axes>",
        "<matplotlib.image.AxesImage at 0x7f3a2c1d0e50>",
        "[<matplotlib.lines.Line2D at 0x7f00>]",
        "Text(0.5, 1.0, 'weights')",
    ],
)
def test_raw_reprs_are_recognised(text):
    assert lab_driver.RAW_REPR.search(text)


@pytest.mark.parametrize(
    "text",
    [
        "torch.Size([2, 3, 4])",
        "tensor([[0.5000, 0.5000]])",
        "he's calm . => il est calme ., bleu 1.000",
    ],
)
def test_ordinary_outputs_are_not_raw_reprs(text):
    assert not lab_driver.RAW_REPR.search(text)


def test_widget_errors_are_told_from_other_console_errors():
    errors = [
        "Error displaying widget: model not found",
        "Failed to load resource: the server responded 404 (favicon.ico)",
    ]
    widget = [e for e in errors if lab_driver.WIDGET_ERROR.search(e)]
    assert widget == errors[:1]
