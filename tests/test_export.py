"""tools/export.py: #@save cells become the package; near misses fail."""

import importlib
import sys

import nbformat
import pytest

from tools import export

IMPORTS = "#@save\nimport math"
SQUARE = '#@save\ndef square(x):\n    """Return x * x."""\n    return x * x'
HELPER = "#@save\ndef _helper():\n    return 1"
SCALE = (
    "#@save\nclass Scale:\n    def __init__(self, k):\n"
    "        self.k = math.sqrt(k)"
)
USE = (
    "#@save\nfrom d2l_attention import square\n\n\n"
    "def cube(x):\n    return square(x) * x"
)


def write_notebook(tmp_path, name, sources, ids=None):
    """Write notebooks/name (markdown, code cells); return notebooks/."""
    folder = tmp_path / "notebooks"
    notebook = nbformat.v4.new_notebook()
    note = "Cells marked `#@save` go into the package."
    notebook.cells.append(nbformat.v4.new_markdown_cell(note))
    for i, source in enumerate(sources):
        cell = nbformat.v4.new_code_cell(source)
        cell.id = ids[i] if ids else f"cell{i}"
        notebook.cells.append(cell)
    folder.mkdir(exist_ok=True)
    nbformat.write(notebook, folder / name)
    return folder


def export_error(notebooks):
    """Return the message of the ExportError that package_files raises."""
    with pytest.raises(export.ExportError) as info:
        export.package_files(notebooks, notebooks.parent / "pkg")
    return str(info.value)


def test_saved_cells_become_modules_and_init(tmp_path):
    notebooks = write_notebook(
        tmp_path,
        "01_first.ipynb",
        [IMPORTS, SQUARE, "print(square(3))", HELPER, SCALE],
    )
    write_notebook(tmp_path, "02_second.ipynb", [USE])
    # not exported, so not NN_name.ipynb; prose about saving is no marker
    prose = ["# save the figure\nx = 1", "# the @save decorator\ny = 2"]
    write_notebook(tmp_path, "scratch.ipynb", prose)
    package = tmp_path / "pkg"
    files = export.package_files(notebooks, package)
    names = ["__init__.py", "first.py", "second.py"]
    assert sorted(path.name for path in files) == names
    first = files[package / "first.py"]
    assert first.startswith(
        "# generated, do not edit: the #@save cells of\n"
        "# notebooks/01_first.ipynb\n"
    )
    assert "import math\n" in first and "print(" not in first
    assert '__all__ = [\n    "square",\n    "Scale",\n]' in first
    assert "def _helper():" in first  # private: saved, not exported
    second = files[package / "second.py"]
    assert "from .first import square\n" in second
    init = files[package / "__init__.py"]
    assert (
        '"first": [\n            "square",\n            "_helper",\n'
        '            "Scale",\n        ],'
    ) in init  # _helper: on use
    assert '"second": [\n            "cube",\n        ],' in init
    for path, text in files.items():
        compile(text, str(path), "exec")
    export.write_package(files, package)
    assert export.stale_files(files, package) == []
    (package / "first.py").write_text("# edited by hand\n")
    assert export.stale_files(files, package) == [package / "first.py"]


@pytest.mark.parametrize(
    "source",
    [
        "# @save\ndef f():\n    pass",
        "#@ save\ndef f():\n    pass",
        "#@Save\ndef f():\n    pass",
        "#@SAVE\ndef f():\n    pass",
        "#@save \ndef f():\n    pass",
        " #@save\ndef f():\n    pass",
        "\n#@save\ndef f():\n    pass",
        "\n\n#@save\ndef f():\n    pass",
        "import math\n#@save\ndef f():\n    pass",
        "def f():  #@save\n    pass",
        "#@save Plotting\ndef f():\n    pass",
    ],
)
def test_near_miss_marker_is_an_error_naming_the_cell(tmp_path, source):
    notebooks = write_notebook(
        tmp_path, "01_first.ipynb", [SQUARE, source], ids=["ok", "nearmiss"]
    )
    message = export_error(notebooks)
    assert "notebooks/01_first.ipynb, cell 3, id nearmiss" in message
    assert "exactly '#@save' or '#@save module_name'" in message


def test_name_saved_in_two_notebooks_names_both(tmp_path):
    notebooks = write_notebook(
        tmp_path, "01_first.ipynb", [IMPORTS, SQUARE], ids=["imports", "one"]
    )
    write_notebook(
        tmp_path, "03_third.ipynb", [HELPER, SQUARE], ids=["helper", "two"]
    )
    message = export_error(notebooks)
    assert "square is saved twice" in message
    assert "notebooks/01_first.ipynb, cell 3, id one" in message
    assert "notebooks/03_third.ipynb, cell 3, id two" in message


def test_name_saved_twice_in_one_notebook_names_both_cells(tmp_path):
    notebooks = write_notebook(
        tmp_path,
        "01_first.ipynb",
        [HELPER, SQUARE, HELPER],
        ids=["a", "b", "c"],
    )
    message = export_error(notebooks)
    assert "_helper is saved twice" in message
    assert "cell 2, id a" in message and "cell 4, id c" in message


def test_private_helpers_cross_modules(tmp_path, monkeypatch):
    notebooks = write_notebook(tmp_path, "01_first.ipynb", [HELPER, SQUARE])
    two = (
        "#@save\nfrom d2l_attention import _helper\n\n\n"
        "def two():\n    return _helper() + 1"
    )
    write_notebook(tmp_path, "02_second.ipynb", [two])
    package = tmp_path / "pkg"
    files = export.package_files(notebooks, package)
    assert (
        'from .first import _helper\n\n__all__ = [\n    "two",\n]\n'
        in files[package / "second.py"]
    )  # private: not in __all__
    export.write_package(files, package)
    monkeypatch.syspath_prepend(tmp_path)
    pkg = importlib.import_module("pkg")
    # a notebook's `from d2l_attention import _helper` works too, unlisted
    assert pkg.two() == 2 and pkg._helper() == 1
    assert "two" in pkg.__all__ and "_helper" not in pkg.__all__
    write_notebook(tmp_path, "03_third.ipynb", [HELPER], ids=["again"])
    message = export_error(notebooks)
    assert "_helper is saved twice" in message
    assert "01_first.ipynb, cell 2" in message and "id again" in message


def test_unused_imports_are_dropped_used_ones_kept_and_sorted(tmp_path):
    imports = "#@save\nimport sys\nfrom os import sep, path\nimport math as m"
    root = "#@save\ndef root(x):\n    return path.join(str(m.sqrt(x)))"
    notebooks = write_notebook(tmp_path, "01_first.ipynb", [imports, root])
    text = export.package_files(notebooks, tmp_path / "pkg")[
        tmp_path / "pkg" / "first.py"
    ]
    assert "\n\nimport math as m\nfrom os import path\n\n__all__" in text
    assert "sys" not in text and "sep" not in text


@pytest.mark.parametrize(
    "source, problem",
    [
        ("#@save\nx = 1", "only imports, functions and classes"),
        ("#@save\nfrom d2l_attention import cube", "no notebook saves it"),
        ("#@save\nimport d2l_attention", "must not import itself"),
        (
            "#@save\nfrom d2l_attention.first import x",
            "must not import itself",
        ),
        ("#@save\nfrom . import first", "must not import itself"),
        ("#@save\ndef f(:\n    pass", "invalid syntax"),
        (
            SQUARE + "\n\n\n" + SQUARE.removeprefix("#@save\n"),
            "square is defined twice",
        ),
    ],
)
def test_other_bad_saved_cells_are_errors(tmp_path, source, problem):
    notebooks = write_notebook(
        tmp_path, "01_first.ipynb", [source], ids=["bad"]
    )
    message = export_error(notebooks)
    assert "01_first.ipynb, cell 2, id bad" in message and problem in message


def test_every_problem_is_reported_at_once(tmp_path):
    notebooks = write_notebook(tmp_path, "01_first.ipynb", ["# @save\nx = 1"])
    write_notebook(tmp_path, "02_second.ipynb", ["#@Save\ny = 2"])
    write_notebook(tmp_path, "first.ipynb", [SQUARE])
    message = export_error(notebooks)
    assert "01_first.ipynb" in message and "02_second.ipynb" in message
    assert "is not NN_name.ipynb" in message


def test_main_reports_one_line_per_problem(tmp_path, monkeypatch, capsys):
    notebooks = write_notebook(tmp_path, "01_first.ipynb", ["\n#@save\nx = 1"])
    monkeypatch.setattr(export, "NOTEBOOKS", notebooks)
    monkeypatch.setattr(sys, "argv", ["export.py", "--check"])
    assert export.main() == 1
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("export: notebooks/")


def test_a_cell_names_its_module_and_gets_the_imports_it_uses(tmp_path):
    plot = "#@save plotting\ndef draw(x):\n    return plt.plot(square(x))"
    notebooks = write_notebook(
        tmp_path,
        "01_first.ipynb",
        ["#@save\nimport math\nimport matplotlib.pyplot as plt", SQUARE, plot],
    )
    write_notebook(
        tmp_path,
        "02_second.ipynb",
        ["#@save plotting\ndef draw_cube(x):\n    return draw(x) * x"],
    )
    package = tmp_path / "pkg"
    files = export.package_files(notebooks, package)
    first = files[package / "first.py"]
    plotting = files[package / "plotting.py"]
    # each module imports what its own code uses, and nothing else
    assert "import math" not in first and "plt" not in first
    assert "import matplotlib.pyplot as plt\n" in plotting
    assert "import math" not in plotting
    assert "from .first import square\n" in plotting
    assert "def draw_cube" in plotting  # cells of two notebooks, in order
    assert plotting.index("def draw(") < plotting.index("def draw_cube")
    assert "# notebooks/02_second.ipynb\n" in plotting
    assert (
        '"plotting": [\n            "draw",\n            "draw_cube",'
        in (files[package / "__init__.py"])
    )


def test_a_module_named_like_a_public_name_is_an_error(tmp_path):
    notebooks = write_notebook(
        tmp_path, "01_square.ipynb", [SQUARE], ids=["sq"]
    )
    message = export_error(notebooks)
    assert "01_square.ipynb, cell 2, id sq: saves to module square" in message


def test_modules_that_import_each_other_are_an_error(tmp_path):
    a = "#@save a\ndef f():\n    return g()"
    b = "#@save b\ndef g():\n    return 1\n\n\ndef h():\n    return f()"
    notebooks = write_notebook(tmp_path, "01_first.ipynb", [a, b])
    assert "modules import each other: a -> b -> a" in export_error(notebooks)


def test_a_module_written_by_hand_is_imported_from_and_left_alone(tmp_path):
    package = tmp_path / "pkg"
    (package / "exercises").mkdir(parents=True)
    written = '__all__ = ["tr"]\n\n\ndef tr(message):\n    return message\n'
    (package / "language.py").write_text(written)
    (package / "exercises" / "__init__.py").write_text("")
    saying = (
        "#@save\nfrom d2l_attention import tr\n\n\n"
        "def hello():\n    return tr('hello')"
    )
    notebooks = write_notebook(tmp_path, "01_first.ipynb", [saying])
    files = export.package_files(notebooks, package)
    assert "from .language import tr\n" in files[package / "first.py"]
    assert '"language": [\n            "tr",' in files[package / "__init__.py"]
    assert package / "language.py" not in files
    assert export.stale_files(files, package) == sorted(files)  # not it
    export.write_package(files, package)
    assert (package / "language.py").read_text() == written
    assert (package / "exercises" / "__init__.py").exists()
    assert (
        'SUBPACKAGES = [\n    "exercises",\n]'
        in files[package / "__init__.py"]
    )
    # a saved cell may not define a name the hand-written module has, nor
    # save to a module written by hand
    clash = "#@save\ndef tr(message):\n    return message"
    notebooks = write_notebook(tmp_path, "02_second.ipynb", [clash])
    with pytest.raises(export.ExportError, match="written by hand"):
        export.package_files(notebooks, package)
    for module in ("language", "exercises"):
        cell = f"#@save {module}\ndef check_x(answer):\n    return answer"
        notebooks = write_notebook(tmp_path, "02_second.ipynb", [cell])
        with pytest.raises(export.ExportError, match=f"module {module}, wh"):
            export.package_files(notebooks, package)
