"""The Portuguese edition: every PO file complete and true to the English,
the glossary kept, the generated notebooks up to date and run.

No kernel: these read files only (a translator runs them with
`pytest tests/test_translations.py`). The checks themselves live in
tests/translation_checks.py; below, each is also shown to fail on a
made-up entry.
"""

import ast
import json
import shutil
import subprocess
from importlib.metadata import entry_points

import nbformat
import polib
import pytest

from tests import translation_checks as checks
from tools import project
from tools.portuguese import build, catalog, code_strings, markdown_blocks

NOTEBOOKS = build.translated_notebooks()
NAMES = [path.stem for path in NOTEBOOKS]


def test_the_first_four_notebooks_are_translated():
    assert NAMES[:4] == [
        "01_masked_softmax",
        "02_additive_attention",
        "03_scaled_dot_product_attention",
        "04_multihead_attention",
    ]


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=NAMES)
def test_po_file_is_complete_and_true_to_the_english(notebook):
    problems = checks.po_problems(notebook)
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=NAMES)
def test_portuguese_notebook_is_what_the_generator_builds(notebook):
    committed = nbformat.read(
        project.NOTEBOOKS_PT / notebook.name, as_version=4
    )
    built = build.translated(
        nbformat.read(notebook, as_version=4),
        catalog.translations(notebook),
        notebook.name,
    )
    assert cells(committed) == cells(built), (
        f"notebooks/pt_BR/{notebook.name} is out of date (run make pt)"
    )


def cells(nb):
    """Each cell's id, type, source and metadata (not its last run's)."""
    return [
        (c.id, c.cell_type, c.source, {**c.metadata, "execution": None})
        for c in nb.cells
    ]


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=NAMES)
def test_portuguese_notebook_was_run(notebook):
    english = nbformat.read(notebook, as_version=4)
    committed = nbformat.read(
        project.NOTEBOOKS_PT / notebook.name, as_version=4
    )
    ran = {c.id: c for c in committed.cells if c.cell_type == "code"}
    not_run = [
        c.id
        for c in english.cells
        if c.cell_type == "code" and c.outputs and not ran[c.id].outputs
    ]
    errors = [
        c.id
        for c in ran.values()
        if any(o.output_type == "error" for o in c.outputs)
    ]
    assert not not_run and not errors, (
        f"run notebooks/pt_BR/{notebook.name} (make pt): cells without "
        f"outputs {not_run}, with errors {errors}"
    )


def test_every_portuguese_notebook_has_its_english_and_po_file():
    for path in project.NOTEBOOKS_PT.glob("*.ipynb"):
        assert (project.NOTEBOOKS / path.name).exists(), path
        assert catalog.po_path(path).exists(), path


def test_glossary_is_read():
    rows = checks.read_glossary()
    assert (
        ["attention pooling"],
        ["pooling de atenção", "poolings de atenção"],
    ) == rows[0][:2]
    # a row names an English term, and a translation, forms to refuse, or
    # both; a refused form says what to write instead
    assert all(
        english and (portuguese or avoid)
        for english, portuguese, avoid, _ in rows
    )
    assert all(
        instead
        for _, portuguese, avoid, instead in rows
        if avoid and not portuguese
    )


# ---- the checks, each seen to fail -----------------------------------


def entry(msgid, msgstr, code=False, **kw):
    context = catalog.CODE if code else None
    return polib.POEntry(msgid=msgid, msgstr=msgstr, msgctxt=context, **kw)


@pytest.mark.parametrize(
    "english, portuguese, problem",
    [
        ("The query $\\mathbf q$.", "A consulta.", "math differ"),
        ("Use `where` here.", "Use where aqui.", "code spans differ"),
        ("## Softmax", "### Softmax", "heading level differs"),
        ("1. a step", "- um passo", "list marker differs"),
        ("[Book](https://d2l.ai).", "[Livro](https://x.org).", "links differ"),
        ("Rows of 1, 3, 4 keys.", "Linhas de 1, 4 chaves.", "numbers differ"),
        ("First 5,000 pairs.", "Os 5.400 primeiros.", "numbers differ"),
        ("| a | b |\n|---|---|", "| a | b | c |\n|---|---|---|", "table"),
        (
            "The attention pooling.",
            "O agrupamento de atenção.",
            "must be translated 'pooling de atenção",
        ),
        (
            "The attention pooling.",
            "O pooling de atenção, agrupamento de atenção.",
            "avoid",
        ),
        ("The key-value pairs.", "Os pares de valores-chave.", "avoid"),
        (
            "Each key is attended to.",
            "Cada chave é atendida.",
            "avoid atendida (write: prestar atenção a",
        ),
        ("The cell asserts it.", "A célula afirma isso.", "avoid afirma"),
        ("We seed every run.", "Semeamos cada execução.", "avoid semeamos"),
        (
            "On a laptop CPU.",
            "Na CPU de um notebook.",
            "avoid CPU de um notebook",
        ),
        ("The queries.", "As perguntas.", "'query' must be translated"),
        ("Some text.", "", "no translation"),
        ("Some text.", "Some text.", "left in English"),
    ],
)
def test_a_bad_translation_is_named(english, portuguese, problem):
    problems = checks.entry_problems(entry(english, portuguese))
    assert any(problem in p for p in problems), problems


def test_placeholders_of_a_string_must_match():
    bad = entry("valid length {len_0}", "comprimento válido {len_1}", True)
    assert any("{placeholders}" in p for p in checks.entry_problems(bad))
    good = entry("valid length {len_0}", "comprimento válido {len_0}", True)
    assert checks.entry_problems(good) == []


def test_a_string_may_stay_english_when_marked():
    kept = entry(
        "ValueError:",
        "ValueError:",
        True,
        tcomment=f"{checks.KEEP}: the exception's name",
    )
    assert checks.entry_problems(kept) == []


def test_a_good_translation_passes():
    good = entry(
        "1. a *scoring function* $a(\\mathbf q, \\mathbf k_i)$ "
        "gives one number per key (`X`);",
        "1. uma *função de pontuação* $a(\\mathbf q, \\mathbf k_i)$ "
        "dá um número por chave (`X`);",
    )
    assert checks.entry_problems(good) == []


def test_numbers_are_grouped_each_language_its_way():
    good = entry(
        "The first 5,000 of 76,037 pairs, 0.0190 and 1, 3.",
        "Os 5.000 primeiros de 76.037 pares, 0,0190 e 1, 3.",
    )
    assert checks.entry_problems(good) == []


# ---- the PO cycle on a made-up notebook -------------------------------


@pytest.fixture
def sandbox(tmp_path, monkeypatch):
    """A notebooks/ folder and a locale/pt_BR/ folder in tmp_path."""
    for name, path in [
        ("NOTEBOOKS", "notebooks"),
        ("NOTEBOOKS_PT", "notebooks/pt_BR"),
        ("LOCALE", "locale/pt_BR"),
    ]:
        monkeypatch.setattr(project, name, tmp_path / path)
    (tmp_path / "notebooks").mkdir()
    return tmp_path


def write_notebook(path, markdown, code):
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_markdown_cell(markdown, id="intro"),
        nbformat.v4.new_code_cell(code, id="plot"),
    ]
    nbformat.write(nb, path)


def fill(path, table):
    po = polib.pofile(str(path))
    for item in po:
        item.msgstr = table.get(item.msgid, item.msgstr)
    po.save(str(path))


CODE = (
    "import matplotlib.pyplot as plt\n"
    'plt.plot([1, 2], color="tab:red")  # not shown: no entry\n'
    'plt.title("Attention weights")\n'
)


def test_a_changed_english_block_turns_fuzzy_with_the_old_english(sandbox):
    notebook = sandbox / "notebooks" / "01_x.ipynb"
    write_notebook(
        notebook, "## Masked softmax\n\nThe mask keeps the valid keys.", CODE
    )
    assert catalog.update(notebook) == {"kept": 0, "fuzzy": 0, "new": 3}
    po_file = catalog.po_path(notebook)
    assert [e.msgid for e in polib.pofile(str(po_file))] == [
        "## Masked softmax",
        "The mask keeps the valid keys.",
        "Attention weights",
    ]
    problems = checks.po_problems(notebook)
    assert len(problems) == 3 and all("no translation" in p for p in problems)
    assert "01_x.ipynb, cell plot: 'Attention weights...'" in problems[2]
    fill(
        po_file,
        {
            "## Masked softmax": "## Softmax mascarada",
            "The mask keeps the valid keys.": (
                "A máscara mantém as chaves válidas."
            ),
            "Attention weights": "Pesos de atenção",
        },
    )
    assert checks.po_problems(notebook) == []

    write_notebook(
        notebook,
        "## Masked softmax\n\nThe mask keeps only the valid keys.",
        CODE,
    )
    assert catalog.update(notebook) == {"kept": 2, "fuzzy": 1, "new": 0}
    stale = [e for e in polib.pofile(str(po_file)) if e.fuzzy]
    assert len(stale) == 1
    assert stale[0].previous_msgid == "The mask keeps the valid keys."
    assert stale[0].msgstr == "A máscara mantém as chaves válidas."
    problems = checks.po_problems(notebook)
    assert len(problems) == 1 and "fuzzy" in problems[0]
    assert "cell intro: 'The mask keeps only the valid" in problems[0]


def translated_notebook(sandbox):
    """A made-up notebook, its PO file filled."""
    notebook = sandbox / "notebooks" / "01_x.ipynb"
    write_notebook(notebook, "## Masked softmax", CODE)
    catalog.update(notebook)
    fill(
        catalog.po_path(notebook),
        {
            "## Masked softmax": "## Softmax mascarada",
            "Attention weights": "Pesos de atenção",
        },
    )
    return notebook


def test_a_new_visible_string_needs_a_translation(sandbox):
    notebook = translated_notebook(sandbox)
    write_notebook(
        notebook, "## Masked softmax", CODE + 'plt.xlabel("Keys")\n'
    )
    problems = checks.po_problems(notebook)
    assert problems == [
        "01_x.ipynb, cell plot: 'Keys...': not in the PO file (run make po)"
    ]


def test_the_built_notebook_and_a_stale_one(sandbox):
    notebook = translated_notebook(sandbox)
    assert build.build(notebook)  # new: must be run
    built = nbformat.read(project.NOTEBOOKS_PT / "01_x.ipynb", as_version=4)
    assert [c.id for c in built.cells] == [
        project.FIRST_CELL_ID,
        "intro",
        "plot",
    ]
    assert "notebooks/01_x.ipynb" in built.cells[0].source
    assert built.cells[1].source == "## Softmax mascarada"
    assert 'plt.title("Pesos de atenção")' in built.cells[2].source
    assert 'color="tab:red"' in built.cells[2].source
    built.cells[2].outputs = [
        nbformat.v4.new_output("stream", name="stdout", text="ran")
    ]
    nbformat.write(built, project.NOTEBOOKS_PT / "01_x.ipynb")
    assert not build.build(notebook)  # same code: outputs kept
    again = nbformat.read(project.NOTEBOOKS_PT / "01_x.ipynb", as_version=4)
    assert again.cells[2].outputs[0].text == "ran"

    english = nbformat.read(notebook, as_version=4)  # a tag, same code
    english.cells[1].metadata["tags"] = ["solution"]
    nbformat.write(english, notebook)
    assert not build.build(notebook)
    again = nbformat.read(project.NOTEBOOKS_PT / "01_x.ipynb", as_version=4)
    assert again.cells[2].metadata["tags"] == ["solution"]
    assert again.cells[2].outputs[0].text == "ran"

    fill(catalog.po_path(notebook), {"Attention weights": "Pesos"})
    now = build.translated(
        nbformat.read(notebook, as_version=4),
        catalog.translations(notebook),
        "01_x.ipynb",
    )
    assert [
        old[0] for old, new in zip(cells(again), cells(now)) if old != new
    ] == ["plot"]


# ---- what counts as a block and as a visible string --------------------


def test_blocks_of_markdown():
    source = (
        "## Title\n\nA paragraph that\nwraps, with $a - b$ and\n"
        "$x\n- y$ math.\n\n1. first\n   item\n2. second\n\n"
        "$$y = x$$\n\n```python\nx = 1\n```\n\n"
        "| mask | keeps |\n|---|---|"
    )
    blocks = markdown_blocks.markdown_blocks(source)
    assert [(b.kind, b.key) for b in blocks] == [
        ("heading", "## Title"),
        ("para", "A paragraph that wraps, with $a - b$ and $x - y$ math."),
        ("item", "1. first item"),
        ("item", "2. second"),
        ("table", "| mask | keeps |\n|---|---|"),
    ]


def test_a_dollar_in_code_or_escaped_opens_no_math():
    source = (
        "Type `$` here.\n\n```bash\necho $HOME\n```\n\n"
        "It costs \\$5.\n\n- an item with $x$ math"
    )
    blocks = markdown_blocks.markdown_blocks(source)
    assert [(b.kind, b.key) for b in blocks] == [
        ("para", "Type `$` here."),
        ("para", "It costs \\$5."),
        ("item", "- an item with $x$ math"),
    ]
    assert (
        markdown_blocks.bare("It costs \\$5 or \\$6.").split()[-1] == "\\$6."
    )


def test_every_english_block_survives_a_round_trip():
    for notebook in sorted(project.NOTEBOOKS.glob("*.ipynb")):
        for cell in nbformat.read(notebook, as_version=4).cells:
            if cell.cell_type != "markdown":
                continue
            out = markdown_blocks.translate_markdown(cell.source, lambda k: k)
            keys = [
                b.key for b in markdown_blocks.markdown_blocks(cell.source)
            ]
            assert [
                b.key for b in markdown_blocks.markdown_blocks(out)
            ] == keys


def test_wrapped_translation_never_starts_a_line_with_structure():
    text = "para " * 14 + "- k e + 1 e 2. fim " * 6
    lines = markdown_blocks.render_block(
        markdown_blocks.Block(0, 1, "para", ""), text
    )
    assert len(lines) > 1
    assert not any(
        line.lstrip()[:2] in ("- ", "+ ") or line.lstrip().startswith("2. ")
        for line in lines
    )


@pytest.mark.parametrize(
    "source, shown",
    [
        ('print("weight on the pads")', ["weight on the pads"]),
        ('ax.set_title("Keys")', ["Keys"]),
        ('plt.plot(x, color="tab:red", loc="upper left")', []),
        (
            'fig = show(x, xlabel="Keys", titles=[f"head {h}" for h in hs])',
            ["Keys", "head {h}"],
        ),
        ('def f():\n    """Return a figure of the weights."""\n', []),
        ('#@save\nprint("saved cells stay English")', []),
        (
            'print(f"weight {w:.2f}, "\n      "output {x}")',
            ["weight {w:.2f}, output {{x}}"],
        ),
    ],
)
def test_visible_strings_of_code(source, shown):
    assert [s.key for s in code_strings.code_strings(source)] == shown


def test_a_nested_placeholder_survives_rewrapping():
    source = 'print(f"{name:>{width}}: {x} "\n      f"and more words")'
    longer = code_strings.translate_code(
        source,
        lambda key: key.replace("and more words", "e mais palavras " * 6),
    )
    compiled = compile(longer, "cell", "exec")  # valid f-strings
    assert compiled and "{name:>{width}}" in longer


def test_translated_code_of_every_notebook_parses():
    long = " e um texto bem mais longo que quebra as linhas"
    for notebook in sorted(project.NOTEBOOKS.glob("*.ipynb")):
        for cell in nbformat.read(notebook, as_version=4).cells:
            if cell.cell_type == "code":
                ast.parse(
                    code_strings.translate_code(
                        cell.source, lambda key: "Ação: " + key + long
                    )
                )


# ---- make lab-pt -------------------------------------------------------


def test_lab_pt_sets_portuguese_for_itself_only():
    folder = project.LOCALE / "jupyterlab-settings" / "@jupyterlab"
    settings = folder / "translation-extension" / "plugin.jupyterlab-settings"
    text = "\n".join(
        line
        for line in settings.read_text().split("\n")
        if not line.strip().startswith("//")
    )
    assert json.loads(text) == {"locale": "pt_BR"}
    packs = entry_points(group="jupyterlab.languagepack")
    assert "pt_BR" in [pack.name for pack in packs]  # the pinned pack
    make = shutil.which("make")
    if make is None:
        pytest.skip("needs make")

    def dry_run(target):
        return subprocess.run(
            [make, "-n", target],
            cwd=project.ROOT,
            capture_output=True,
            text=True,
        ).stdout

    lab_pt, lab = dry_run("lab-pt"), dry_run("lab")
    assert "JUPYTERLAB_SETTINGS_DIR=build/lab-pt/user-settings" in lab_pt
    assert "--notebook-dir=notebooks/pt_BR" in lab_pt
    assert "JUPYTERLAB_SETTINGS_DIR" not in lab
    assert "--notebook-dir=notebooks " in lab
