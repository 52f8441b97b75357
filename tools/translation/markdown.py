"""Markdown cells cut into blocks (a heading, a list item, a paragraph, a
table) with markdown-it-py, and translated blocks wrapped back."""

import re
import textwrap
from dataclasses import dataclass

from markdown_it import MarkdownIt
from mdit_py_plugins.dollarmath import dollarmath_plugin

WIDTH = 79
HEADING = re.compile(r"^(#{1,6} )")
ITEM = re.compile(r"^(\s*(?:[-*+]|\d+[.)]) )")
MATH = re.compile(r"\$\$.+?\$\$|\$[^$]+\$", re.S)
CODE_SPAN = re.compile(r"`[^`]+`")
LINK = re.compile(r"\]\(([^)\s]+)\)")
PLACEHOLDER = re.compile(r"(?<!\{)\{[^{}]*\}(?!\})")
LETTERS = re.compile(r"[A-Za-zÀ-ÿ]{2,}")
PARSER = MarkdownIt("commonmark").enable("table").use(dollarmath_plugin)
KINDS = {"heading_open": "heading", "table_open": "table"}
BLOCKS = {"paragraph_open", "fence", "code_block", "math_block", "hr",
          "math_block_label", "html_block", *KINDS}


@dataclass
class Block:
    """Lines [start, end) of a markdown cell; key is what a PO entry holds."""

    start: int
    end: int
    kind: str  # heading, item, para, table or verbatim
    key: str
    marker: str = ""  # "## ", "1. ", "  - ": kept out of the wrapping


def bare(text):
    """Return text without math, code spans, link targets, placeholders."""
    for pattern in (MATH, CODE_SPAN, LINK, PLACEHOLDER):
        text = pattern.sub(" ", text)
    return text


def has_words(text):
    """Return whether text has words outside math, code and link targets."""
    return bool(LETTERS.search(bare(text)))


def _parsed(lines):
    """Return the lines the parser reads: a line that inline math opened
    on the line before continues the paragraph, whatever it starts with."""
    out, open_math = [], False
    for line in lines:
        out.append("x" + line if open_math and line.strip() else line)
        dollars = re.sub(r"\\\$|\$\$", "", line).count("$")
        open_math = bool(line.strip()) and open_math != (dollars % 2 == 1)
    return "\n".join(out)


def _block(token, lines, items):
    """Return the Block of a block token."""
    start, end = token.map
    kind = KINDS.get(token.type, "verbatim")
    if token.type == "paragraph_open":
        kind = "item" if start in items else "para"
    text = " ".join(line.strip() for line in lines[start:end])
    marker = ITEM.match(lines[start]).group(1) if kind == "item" else ""
    if kind == "item":  # key: the marker without its indentation, the text
        text = marker.strip() + " " + text[len(marker.strip()) :].lstrip()
    elif kind == "heading":
        marker, text = HEADING.match(lines[start]).group(1), lines[start]
    elif kind == "table":
        text = "\n".join(lines[start:end])
    if kind == "verbatim" or not has_words(text):
        return Block(start, end, "verbatim", "")  # nothing to translate
    return Block(start, end, kind, text, marker)


def markdown_blocks(source):
    """Return the Blocks of a markdown source, in order."""
    lines, blocks, items = source.split("\n"), [], set()
    for token in PARSER.parse(_parsed(lines)):
        if token.type == "list_item_open":
            items.add(token.map[0])  # the first line of a list item
        elif token.type in BLOCKS:
            blocks.append(_block(token, lines, items))
    return blocks


# a space before what would start a list, a heading or a quote at the start
# of a line: wrapped text never breaks there
UNBREAKABLE = re.compile(r" (?=(?:[-+*>|]|#+|\d+[.)])(?: |$)|\$\$|```)")


def _wrap(text, first, rest):
    """Return text wrapped; no line starts with what markdown reads as
    structure."""
    lines = textwrap.wrap(
        UNBREAKABLE.sub("\0", text), WIDTH, initial_indent=first,
        subsequent_indent=rest, break_long_words=False,
        break_on_hyphens=False)  # fmt: skip
    return [line.replace("\0", " ") for line in lines]


def render_block(block, text):
    """Return the lines of a translated block."""
    if block.kind in ("heading", "table"):
        return text.split("\n")
    if block.kind == "item":
        indent = block.marker[: len(block.marker) - len(block.marker.lstrip())]
        marker, _, body = text.partition(" ")
        return _wrap(body, indent + marker + " ", " " * len(block.marker))
    return _wrap(text, "", "")


def translate_markdown(source, lookup):
    """Return source with every block replaced by lookup(key) (or kept)."""
    lines = source.split("\n")
    out, last = [], 0
    for block in markdown_blocks(source):
        text = lookup(block.key) if block.kind != "verbatim" else None
        out += lines[last : block.start]
        out += render_block(block, text) if text else lines[block.start : block.end]
        last = block.end
    return "\n".join(out + lines[last:])
