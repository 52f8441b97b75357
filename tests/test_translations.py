"""The Portuguese edition: every PO file complete and true to the English,
the glossary kept, the generated notebooks up to date and run.

No kernel: these read files only (a translator runs them with
`pytest tests/test_translations.py`). The checks themselves live in
tests/translation_checks.py; below, each is also shown to fail on a
made-up entry.
"""

import ast
import json
import re
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


def test_the_catalog_of_the_packages_messages_is_complete_and_true():
    problems = checks.package_problems()
    assert not problems, "\n".join(problems)


PLANTED = """
def check_planted(answer):
    if answer:
        return not_yet("the keys were {how}", how=answer)
    return right("the attention pooling is right")
"""


@pytest.mark.parametrize(
    "english, portuguese, problem",
    [
        ("the keys were {how}", "", "no translation"),
        ("the keys were {how}", "as chaves foram {como}", "{placeholders}"),
        ("the keys were {how}", "os índices foram {how}", "'key' must be"),
        ("the attention pooling is right", "", "no translation"),
        (
            "the attention pooling is right",
            "o agrupamento de atenção está certo",
            "'pooling de atenção",
        ),
    ],
)
def test_a_planted_message_is_named(tmp_path, english, portuguese, problem):
    package = tmp_path / "d2l_attention"
    (package / "exercises").mkdir(parents=True)
    (package / "exercises" / "planted.py").write_text(PLANTED)
    good = {
        "the keys were {how}": "as chaves foram {how}",
        "the attention pooling is right": "o pooling de atenção está certo",
    }
    po = polib.POFile()
    for msgid, msgstr in good.items():
        msgstr = portuguese if msgid == english else msgstr
        po.append(polib.POEntry(msgid=msgid, msgstr=msgstr))
    po.save(str(tmp_path / "d2l_attention.po"))
    problems = checks.package_problems(package, tmp_path / "d2l_attention.po")
    assert problems and all(english[:20] in p for p in problems), problems
    assert any(problem in p for p in problems), problems
    assert all("d2l_attention/exercises/planted.py" in p for p in problems)


def test_a_message_must_be_a_literal(tmp_path):
    package = tmp_path / "d2l_attention"
    package.mkdir()
    (package / "hints.py").write_text('def f(n):\n    return tr(f"n={n}")\n')
    with pytest.raises(
        ValueError, match=r"hints.py:2: tr\(\) takes a literal"
    ):
        catalog.package_messages(package)


def test_each_english_set_up_chooses_english_once_pt_br_follows():
    for notebook in NOTEBOOKS:
        nb = nbformat.read(notebook, as_version=4)
        sources = [c.source for c in nb.cells if c.cell_type == "code"]
        calls = [s for s in sources if build.LANGUAGE_CALL.search(s)]
        assert len(calls) == 1 and calls[0].count("use_language(") == 1
        built = build.translated(nb, {}, notebook.name)
        text = "\n".join(c.source for c in built.cells)
        assert 'use_language("pt_BR")' in text
        assert 'use_language("en")' not in text


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
        (
            "Shape `(batch_size, no. of queries)`.",
            "Formato `(batch_size, no. of queries)`.",
            "a shape keeps 'no. of'",
        ),
        (
            "Shape `(batch_size, no. of queries)`.",
            "Formato `(batch_size, nº de chaves)`.",
            "code spans differ",
        ),
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


def test_a_shape_is_written_as_the_error_messages_write_it():
    good = entry(
        "Scores of shape `(batch_size, no. of queries, no. of keys)`.",
        "Pontuações de formato `(batch_size, nº de consultas, nº de chaves)`.",
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


# ---- numbers in the Portuguese outputs ---------------------------------

# a number written the English way: a decimal point between digits, or
# commas grouping thousands twice or more (2,097,152; "1,000" is one with
# three decimals in Portuguese, so a single group is not told apart)
ENGLISH_NUMBER = re.compile(
    r"(?<![\w.])\d+\.\d+(?:e[-+]?\d+)?(?!\w|\.\d)|(?<![\w,.])\d{1,3}(?:,\d{3}){2,}"
)
# a line that is code: a printed tensor, array, list or tuple, an object's
# repr (a widget's), or the continuation of one
CODE_LINE = re.compile(r"^\s*(?:[\w.]+\(|\[|\()")
# what an error message echoes of the caller's value: code, between brackets
BRACKETED = re.compile(r"\[[^\[\]]*\]|\([^()]*\)")
VERSION = re.compile(r"\b\d+\.\d+\.\d+\S*")  # torch 2.13.0+cpu
ERROR_LINE = re.compile(r"^\s*\w+(?:Error|Exception): ")  # one printed


def english_numbers(line, error=False):
    """Return the numbers of an output line written the English way, and
    the rule applied. A line that is code (a printed tensor or list, a
    repr) keeps Python's notation; in an error message, so does the value
    it echoes between brackets; everything else is prose, a list printed
    in a sentence included, and reads the Brazilian way."""
    if CODE_LINE.match(line):
        return [], "code: a printed tensor, list or repr"
    error = error or bool(ERROR_LINE.match(line))
    prose = VERSION.sub(" ", line)
    while error and (stripped := BRACKETED.sub(" ", prose)) != prose:
        prose = stripped
    rule = (
        "an error's prose (its echo of a value is code)"
        if error
        else ("prose, lists in a sentence included")
    )
    return ENGLISH_NUMBER.findall(prose), rule


def output_texts(cell):
    """Return (text, is an error) of what a student reads in a code cell's
    outputs."""
    texts = []
    for out in cell.get("outputs", []):
        if out.output_type == "stream":
            texts.append((out.text, False))
        elif out.output_type == "error":
            texts.append((out.evalue, True))
        elif "text/plain" in out.get("data", {}):
            if "image/png" not in out.data:  # a figure's text: its repr
                texts.append((out.data["text/plain"], False))
    return texts


def number_problems(path):
    """Return, for each output line of a Portuguese notebook with a number
    written the English way, the notebook, the cell id, the rule and text."""
    found = []
    for cell in nbformat.read(path, as_version=4).cells:
        for text, error in output_texts(cell):
            # each line apart: a tensor printed after a sentence is its own
            for line in text.split("\n"):
                numbers, rule = english_numbers(line, error)
                if numbers:
                    found.append(
                        f"{path.name}, cell {cell.id}: {', '.join(numbers)} "
                        f"in {line.strip()[:90]!r} (rule: {rule})"
                    )
    return found


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=NAMES)
def test_portuguese_outputs_write_numbers_the_brazilian_way(notebook):
    problems = number_problems(project.NOTEBOOKS_PT / notebook.name)
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize(
    "line, found",
    [
        ("maior peso 0.37 em d = 2", ["0.37"]),
        ("2,097,152 operações", ["2,097,152"]),
        (
            "maior diferença: 1.7881393432617188e-07",
            ["1.7881393432617188e-07"],
        ),
        ("maior peso 0,37 em d = 2; 2.097.152 operações", []),
        (
            "saída: [[1.68, 2.68], [10.16, 11.16]]",
            ["1.68", "2.68", "10.16", "11.16"],
        ),
        ("saída: [[1,68; 2,68]; [10,16; 11,16]]", []),
        ("[0.5, 1.5]", []),
        ("        [0.3, 0.4]])", []),
        ("interactive(children=(FloatSlider(value=3.0,", []),
        ("formato (8, 32, 32), 641,2 µs", []),
        ("tensor([0.5000, 0.5000])", []),
        ("torch 2.13.0+cpu em cpu", []),
        ("41,9 (38,3–45,6)", []),
        ("acurácia 1,000", []),
        ("o maior peso é 0.37.", ["0.37"]),
        ("pesos 0,2, 0,3 e 0.5.", ["0.5"]),
    ],
)
def test_an_english_number_in_a_portuguese_output_is_found(line, found):
    assert english_numbers(line)[0] == found


def test_an_error_may_echo_the_value_it_got():
    line = "valid_lens precisa ter números inteiros >= 0; recebido: [1.5, 2.0]"
    assert english_numbers(line, error=True)[0] == []
    assert english_numbers(line)[0] == ["1.5", "2.0"]
    assert english_numbers("ValueError: " + line)[0] == []  # one printed
