"""Markdown cells cut into blocks with markdown-it-py, and translated
blocks wrapped back."""

import re
import textwrap
from collections import namedtuple

from markdown_it import MarkdownIt
from mdit_py_plugins.dollarmath import dollarmath_plugin

WIDTH = 79
ITEM = re.compile(r"^(\s*(?:[-*+]|\d+[.)]) )")
MATH = re.compile(r"\$\$.+?\$\$|\$[^$]+\$", re.S)
CODE_SPAN = re.compile(r"`[^`]+`")
LINK = re.compile(r"\]\(([^)\s]+)\)")
PLACEHOLDER = re.compile(r"(?<!\{)\{[^{}]*\}(?!\})")
LETTERS = re.compile(r"[A-Za-zÀ-ÿ]{2,}")
# a space before what would start a list, a heading or a quote at the start
# of a line: wrapped text never breaks there
UNBREAKABLE = re.compile(r" (?=(?:[-+*>|]|#+|\d+[.)])(?: |$)|\$\$|```)")
PARSER = MarkdownIt("commonmark").enable("table").use(dollarmath_plugin)
KINDS = {"heading_open": "heading", "table_open": "table"}
VERBATIM = {"fence", "code_block", "math_block", "math_block_label", "hr"}
# lines [start, end) of a cell; kind: heading, item, para, table or
# verbatim; key: its PO msgid; marker: an item's, "  - ", not wrapped
Block = namedtuple("Block", "start end kind key marker", defaults=[""])


def bare(text):
    """Return text without math, code spans, link targets, placeholders;
    a line break in a string of code, "\\n", is a space."""
    text = text.replace("\\n", " ")
    for pattern in (MATH, CODE_SPAN, LINK, PLACEHOLDER):
        text = pattern.sub(" ", text)
    return text


def _parsed(lines):
    """Return the text the parser reads, line for line: a line inside
    inline math opened on a line before gets an "x" in front, so that the
    parser reads it as the paragraph going on, not as a list item or a
    heading (a $ inside a code fence opens no math)."""
    out, open_math, fenced = [], False, False
    for line in lines:
        fenced ^= line.lstrip().startswith("```")
        out.append("x" + line if open_math and line.strip() else line)
        odd = re.sub(r"\\\$|\$\$", "", line).count("$") % 2 == 1
        open_math = bool(line.strip()) and not fenced and open_math != odd
    return "\n".join(out)


def markdown_blocks(source):
    """Return the Blocks of a markdown source, in order."""
    lines, blocks, items = source.split("\n"), [], set()
    for token in PARSER.parse(_parsed(lines)):
        kind = KINDS.get(token.type, "verbatim")
        if token.type == "list_item_open":
            items.add(token.map[0])  # a list item's first line
        if token.type == "paragraph_open":
            kind = "item" if token.map[0] in items else "para"
        elif token.type not in (*KINDS, *VERBATIM, "html_block"):
            continue
        start, end = token.map
        text = " ".join(line.strip() for line in lines[start:end])
        marker = ITEM.match(lines[start])[1] if kind == "item" else ""
        if kind in KINDS.values():
            text = "\n".join(lines[start:end])
        if kind == "verbatim" or not LETTERS.search(bare(text)):
            kind, text = "verbatim", ""  # nothing to translate
        blocks.append(Block(start, end, kind, text, marker))
    return blocks


def render_block(block, text):
    """Return the lines of a translated block; no line starts with what
    markdown reads as structure."""
    if block.kind in KINDS.values():
        return text.split("\n")
    first = rest = ""
    if block.kind == "item":
        marker, _, text = text.partition(" ")
        first = block.marker[: block.marker.index(block.marker.lstrip())]
        first, rest = first + marker + " ", " " * len(block.marker)
    wrapper = textwrap.TextWrapper(WIDTH, first, rest, break_long_words=False)
    wrapper.break_on_hyphens = False
    lines = wrapper.wrap(UNBREAKABLE.sub("\0", text))
    return [line.replace("\0", " ") for line in lines]


def translate_markdown(source, lookup):
    """Return source with every block replaced by lookup(key) (or kept)."""
    lines, out, last = source.split("\n"), [], 0
    for block in markdown_blocks(source):
        text = lookup(block.key) if block.kind != "verbatim" else None
        out += lines[last : block.start]
        old = lines[block.start : block.end]
        out += render_block(block, text) if text else old
        last = block.end
    return "\n".join(out + lines[last:])
