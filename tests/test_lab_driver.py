"""tools/browser_test.py: the parts that need no browser."""

import socket

import pytest

from tools import browser_test


@pytest.fixture
def no_chromium(monkeypatch):
    """A machine on which no Chromium is installed."""
    monkeypatch.setattr(browser_test.shutil, "which", lambda name: None)


def test_no_chromium_says_how_to_install_it(no_chromium, monkeypatch,
                                            capsys):
    def must_not_start(*args, **kwargs):
        raise AssertionError("started JupyterLab without a browser")

    monkeypatch.setattr(browser_test, "LabServer", must_not_start)
    assert browser_test.main([]) != 0
    err = capsys.readouterr().err
    assert "Chromium is not installed" in err
    assert "sudo apt-get install chromium" in err


def test_chromium_found_on_path(monkeypatch):
    monkeypatch.setattr(
        browser_test.shutil, "which",
        lambda name: "/usr/bin/chromium" if name == "chromium" else None)
    assert browser_test.find_chromium() == "/usr/bin/chromium"


def test_no_playwright_says_how_to_install_it(monkeypatch):
    monkeypatch.setattr(browser_test, "find_chromium", lambda: "/bin/true")
    monkeypatch.setattr(browser_test, "sync_playwright", None)
    assert "requirements-dev.txt" in browser_test.missing_tools()


def test_free_port_can_be_bound():
    port = browser_test.free_port()
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", port))


def test_notebooks_are_served_from_a_copy(tmp_path):
    served = browser_test.copy_notebooks([], tmp_path)
    names = sorted(p.relative_to(served).as_posix()
                   for p in served.rglob("*.ipynb"))
    assert names == sorted(p.relative_to(browser_test.NOTEBOOKS).as_posix()
                           for p in browser_test.NOTEBOOKS.rglob("*.ipynb"))
    assert "pt_BR/01_masked_softmax.ipynb" in names
    assert served.resolve() != browser_test.NOTEBOOKS.resolve()
    assert (tmp_path / "data").resolve() == (
        browser_test.ROOT / "data").resolve()


def test_both_editions_by_default_each_in_its_language(tmp_path):
    paths = browser_test.notebook_paths([])
    english = sorted(browser_test.NOTEBOOKS.glob("*.ipynb"))
    portuguese = sorted((browser_test.NOTEBOOKS / "pt_BR").glob("*.ipynb"))
    assert paths == english + portuguese and portuguese
    assert {browser_test.language(p) for p in english} == {"en"}
    assert {browser_test.language(p) for p in portuguese} == {"pt_BR"}
    assert browser_test.served_name(portuguese[0]) == (
        "pt_BR/" + portuguese[0].name)
    # a notebook from elsewhere is served by its name, in English
    other = tmp_path / "pt_BR_copy.ipynb"
    other.write_text("{}")
    assert browser_test.served_name(other) == "pt_BR_copy.ipynb"
    assert browser_test.language(other) == "en"
    served = browser_test.copy_notebooks([other], tmp_path)
    assert (served / "pt_BR_copy.ipynb").read_text() == "{}"


def test_the_portuguese_server_sets_the_locale(tmp_path):
    # make lab-pt's setting, used by the test as it is
    setting = "@jupyterlab/translation-extension/plugin.jupyterlab-settings"
    browser_test.write_lab_settings(tmp_path / "en")
    browser_test.write_lab_settings(tmp_path / "pt", "pt_BR")
    assert not (tmp_path / "en" / setting).exists()
    assert '"locale": "pt_BR"' in (tmp_path / "pt" / setting).read_text()
    for name in browser_test.LAB_SETTINGS:
        assert (tmp_path / "pt" / name).exists()


def test_a_notebook_from_elsewhere_replaces_its_namesake(tmp_path):
    other = tmp_path / "elsewhere" / "01_masked_softmax.ipynb"
    other.parent.mkdir()
    other.write_text("{}")
    served = browser_test.copy_notebooks([other], tmp_path / "work")
    assert browser_test.served_name(other) == "01_masked_softmax.ipynb"
    assert (served / "01_masked_softmax.ipynb").read_text() == "{}"


def test_digests_see_a_changed_file(tmp_path):
    path = tmp_path / "a.ipynb"
    path.write_text("{}")
    before = browser_test.digests([path])
    path.write_text("{ }")
    assert browser_test.digests([path]) != before


@pytest.mark.parametrize("text", [
    "<Figure size 640x480 with 1 Axes>",
    "<matplotlib.image.AxesImage at 0x7f3a2c1d0e50>",
    "[<matplotlib.lines.Line2D at 0x7f00>]",
    "Text(0.5, 1.0, 'weights')",
])
def test_raw_reprs_are_recognised(text):
    assert browser_test.RAW_REPR.search(text)


@pytest.mark.parametrize("text", [
    "torch.Size([2, 3, 4])", "tensor([[0.5000, 0.5000]])",
    "he's calm . => il est calme ., bleu 1.000",
])
def test_ordinary_outputs_are_not_raw_reprs(text):
    assert not browser_test.RAW_REPR.search(text)


def test_widget_errors_are_told_from_other_console_errors():
    console = browser_test.Console.__new__(browser_test.Console)
    console.errors = [
        "Error displaying widget: model not found",
        "Failed to load resource: the server responded 404 (favicon.ico)",
    ]
    assert console.widget_errors() == console.errors[:1]
