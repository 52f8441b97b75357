"""Markdown cells cut into blocks with markdown-it-py, and translated
blocks wrapped back."""

import re
import textwrap
from collections import namedtuple

from markdown_it import MarkdownIt
from mdit_py_plugins.dollarmath import dollarmath_plugin

WIDTH = 79
ITEM = re.compile(r"^(\s*(?:[-*+]|\d+[.)]) )")
# inline math runs over lines, not over a blank one; \$ opens none
INLINE_MATH = r"(?<![\\$])\$(?:[^$\n]|\n(?!\s*\n))+?\$"
MATH = re.compile(r"\$\$.+?\$\$|" + INLINE_MATH, re.S)
MASK = re.compile(r"(`+).*?\1|" + INLINE_MATH, re.S)  # code, or math: _parsed
CODE_SPAN = re.compile(r"`[^`]+`")
LINK = re.compile(r"\]\(([^)\s]+)\)")
PLACEHOLDER = re.compile(r"(?<!\{)\{[^{}]*\}(?!\})")
LETTERS = re.compile(r"[A-Za-zÀ-ÿ]{2,}")
# a space before what would start a list, a heading or a quote at the start
# of a line: wrapped text never breaks there
UNBREAKABLE = re.compile(r" (?=(?:[-+*>|]|#+|\d+[.)])(?: |$)|\$\$|```)")
PARSER = MarkdownIt("commonmark").enable("table").use(dollarmath_plugin)
KINDS = {"heading_open": "heading", "table_open": "table"}
# lines [start, end) of a cell; kind: heading, item, para or table;
# key: its PO msgid; marker: an item's, "  - ", not wrapped
Block = namedtuple("Block", "start end kind key marker", defaults=[""])


def bare(text):
    """Return text without math, code spans, link targets, placeholders;
    a line break in a string of code, "\\n", is a space."""
    text = text.replace("\\n", " ")
    for pattern in (CODE_SPAN, MATH, LINK, PLACEHOLDER):
        text = pattern.sub(" ", text)
    return text


def _parsed(source):
    """Return source with the characters of its inline math as x's, line
    breaks kept: no line inside it reads as a list item or a heading."""
    return MASK.sub(lambda m: m[0] if m[1] else re.sub(".", "x", m[0]), source)


def markdown_blocks(source):
    """Return the Blocks of a markdown source with words to translate."""
    lines, blocks, items = source.split("\n"), [], set()
    for token in PARSER.parse(_parsed(source)):
        kind = KINDS.get(token.type)
        if token.type == "list_item_open":
            items.add(token.map[0])  # a list item's first line
        if token.type == "paragraph_open":
            kind = "item" if token.map[0] in items else "para"
        elif kind is None:  # code, math blocks, html: kept as they are
            continue
        start, end = token.map
        text = " ".join(line.strip() for line in lines[start:end])
        marker = ITEM.match(lines[start])[1] if kind == "item" else ""
        if kind in KINDS.values():
            text = "\n".join(lines[start:end])
        if LETTERS.search(bare(text)):  # else nothing to translate
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
    """Return source with each block replaced by lookup(key), if any."""
    lines, out, last = source.split("\n"), [], 0
    for block in markdown_blocks(source):
        text = lookup(block.key)
        out += lines[last : block.start]
        old = lines[block.start : block.end]
        out += render_block(block, text) if text else old
        last = block.end
    return "\n".join(out + lines[last:])
