"""The teacher's guides (TEACHING.md, TEACHING.pt-BR.md) match the notebooks.

Each guide has one section per notebook, titled with the notebook's title,
that lists the headings of its main path (the cells tagged `main-path`),
then the headings a class can skip (every other heading), in notebook order,
and gives the minutes to walk the main path, estimated from the notebook as
the guide says: its words at 120 a minute, a minute for each code cell shown,
five for the explorer.
"""

import re

import nbformat
import pytest

from tools import project, student
from tools.project import ROOT

GUIDES = {
    "TEACHING.md": ROOT / "notebooks",
    "TEACHING.pt-BR.md": ROOT / "notebooks" / "pt_BR",
}
MAIN = "main-path"
HEADING = re.compile(r"^(#{1,3}) (.+)$", re.M)
WORDS_PER_MINUTE, CODE_CELL_MINUTES, EXPLORER_MINUTES = 120, 1, 5


def headings(cell):
    """Return the headings of a markdown cell, without their #s."""
    if cell.cell_type != "markdown":
        return []
    return [text.strip() for _, text in HEADING.findall(cell.source)]


def notebook_cells(path):
    """Return a notebook's cells, without the Portuguese edition's note."""
    return [
        cell
        for cell in nbformat.read(path, as_version=4).cells
        if cell.get("id") != project.FIRST_CELL_ID
    ]


def main_path_minutes(cells):
    """Return the minutes to walk the main path: its words at 120 a minute,
    a minute per code cell shown, five per explorer, to the nearest 5."""
    words = code = explorers = 0
    on_path = False
    for cell in cells:
        if headings(cell):
            on_path = MAIN in student.tags(cell)
            explorers += on_path and any(
                text.startswith("Explor") for text in headings(cell)
            )
        if not on_path:
            continue
        if cell.cell_type == "markdown":
            words += len(cell.source.split())
        elif not cell.metadata.get("jupyter", {}).get("source_hidden"):
            code += 1
    minutes = (
        words / WORDS_PER_MINUTE
        + code * CODE_CELL_MINUTES
        + explorers * EXPLORER_MINUTES
    )
    return 5 * round(minutes / 5)


def guide_sections(text):
    """Return {notebook title: section text} of a guide."""
    parts = re.split(r"^## ", text, flags=re.M)[1:]
    return {part.split("\n", 1)[0].strip(): part for part in parts}


def listed(section, label):
    """Return the items of the list that follows the line starting label."""
    lines = section.split("\n")
    start = next(i for i, line in enumerate(lines) if line.startswith(label))
    items = []
    for line in lines[start + 1 :]:
        if line.startswith("- "):
            items.append(line[2:].strip())
        elif items or line.strip():
            break
    return items


CASES = [
    (guide, path)
    for guide, folder in GUIDES.items()
    for path in sorted(folder.glob("[0-9]*.ipynb"))
]


@pytest.mark.parametrize(
    "guide, path", CASES, ids=[f"{g}-{p.name}" for g, p in CASES]
)
def test_the_guide_matches_the_notebook(guide, path):
    text = (ROOT / guide).read_text(encoding="utf-8")
    cells = notebook_cells(path)
    title, *rest = [h for cell in cells for h in headings(cell)]
    section = guide_sections(text)[title]
    main = [
        h
        for cell in cells
        if MAIN in student.tags(cell)
        for h in headings(cell)
    ][1:]  # the title heads the section
    skipped = [
        h
        for cell in cells
        if MAIN not in student.tags(cell)
        for h in headings(cell)
    ]
    label = {
        "TEACHING.md": ("Main path", "Skip in class", "minutes"),
        "TEACHING.pt-BR.md": ("Caminho principal", "Dá para pular", "minutos"),
    }[guide]
    assert listed(section, label[0]) == main
    assert listed(section, label[1]) == skipped
    assert sorted(main + skipped) == sorted(rest)
    minutes = re.search(rf"\*\*(\d+) {label[2]}\*\*", section)
    assert minutes and int(minutes[1]) == main_path_minutes(cells)


def test_every_notebook_has_a_tagged_main_path_and_a_section():
    for guide, folder in GUIDES.items():
        sections = guide_sections((ROOT / guide).read_text(encoding="utf-8"))
        titles = []
        for path in sorted(folder.glob("[0-9]*.ipynb")):
            cells = notebook_cells(path)
            assert MAIN in student.tags(cells[0])  # the title's cell
            titles.append(headings(cells[0])[0])
        assert [t for t in sections if t in titles] == titles


def test_the_estimate_counts_what_it_says():
    cells = [
        nbformat.v4.new_markdown_cell("# T\n" + "word " * 239),
        nbformat.v4.new_code_cell("x = 1"),
        nbformat.v4.new_markdown_cell("## Explorer: x"),
        nbformat.v4.new_code_cell("f(x)"),
        nbformat.v4.new_markdown_cell("## Optional"),
        nbformat.v4.new_code_cell("g(x)"),
    ]
    for cell in cells[:4]:
        cell.metadata["tags"] = [MAIN]
    # 240 + 3 words: 2 minutes, 2 code cells, one explorer: 9, so 10
    assert main_path_minutes(cells) == 10
    cells[3].metadata["jupyter"] = {"source_hidden": True}
    cells[2].metadata["tags"] = []
    # the explorer's section is off the path now: 2 + 1 = 3, so 5
    assert main_path_minutes(cells) == 5
