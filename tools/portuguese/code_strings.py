"""The strings of code cells that a student sees (figure labels, widget
descriptions, printed sentences), found with an ast walk, and replaced."""

import ast
import re
from collections import namedtuple

from .markdown_blocks import LETTERS, WIDTH, bare

# calls and keyword arguments whose strings are shown, and those never shown
SHOWN = {"print", "title", "xlabel", "ylabel", "label", "text", "description"}
HIDDEN = set(
    "color cmap loc ha va fontsize style xscale yscale indexing reduction"
    " edgecolor facecolor linestyle marker dtype device mode family".split()
)
# calls whose strings are code: the edition's language (which the builder
# sets) and a number's format
HIDDEN_CALLS = {"use_language", "number"}
# strings that name code rather than say something: identifiers,
# attributes, calls, CSS sizes
CODE_LIKE = re.compile(r"^[\w.]*_[\w.]*$|\w\.\w|\w\(|^\d+(px|%)$")
# a literal, or a comment between the literals of implicit concatenation
LITERAL = re.compile(
    r"#[^\n]*|(?P<prefix>\w*)(?P<quote>'''|\"\"\"|'|\")"
    r"(?P<body>(?:\\.|.)*?)(?P=quote)",
    re.S,
)
BRACKETS = (ast.List, ast.Tuple, ast.Dict, ast.ListComp, ast.GeneratorExp)
DEFS = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)
BRACES = str.maketrans({"{": "{{", "}": "}}"})
# start, end: (row, col) as ast counts them: rows from 1, UTF-8 bytes;
# key: the text between the quotes as written, of one literal or of several
# joined by implicit concatenation
CodeString = namedtuple("CodeString", "start end key prefix quote pieces")


def _name(parent, node):
    """Return the name parent gives node: a keyword argument's or a
    parameter's (node its default)."""
    if isinstance(parent, ast.arguments):
        names = parent.posonlyargs + parent.args
        names = names[len(names) - len(parent.defaults) :] + parent.kwonlyargs
        values = parent.defaults + parent.kw_defaults
        return next((n.arg for n, v in zip(names, values) if v is node), None)
    return parent.arg if isinstance(parent, ast.keyword) else None


def _shown(node, parents, text):
    """Return whether a student may see a string node of text: any string
    with a word, but subscripts, styling arguments and names of code."""
    name, call, starts = None, None, {(node.lineno, node.col_offset)}
    while (parent := parents.get(node)) is not None:
        if isinstance(parent, ast.Call) and node is not parent.func:
            call = getattr(parent.func, "attr", getattr(parent.func, "id", 0))
            break
        if isinstance(parent, ast.Subscript) and node is parent.slice:
            return False
        at = getattr(node, "lineno", 0), getattr(node, "col_offset", 0)
        if isinstance(node, BRACKETS):  # the name of a bracket, or of what
            starts.add(at)  # a string starts, is the string's
        name = name or (_name(parent, node) if at in starts else None)
        node = parent
    if not LETTERS.search(bare(text)) or name in HIDDEN:
        return False
    if call in HIDDEN_CALLS:
        return False
    return SHOWN & {name, call} or not CODE_LIKE.search(bare(text).strip())


def code_strings(source, every=False):
    """Return the CodeStrings of a code cell that a student may see; with
    every=True, all but docstrings (a translated string is replaced
    everywhere, so that a key or a comparison keeps matching its label)."""
    if source.startswith("#@save") or source.lstrip().startswith("%"):
        return []
    tree, skip, found = ast.parse(source), set(), []
    parents = {c: n for n in ast.walk(tree) for c in ast.iter_child_nodes(n)}
    for node in ast.walk(tree):  # a node before those it holds: skip
        if isinstance(node, ast.JoinedStr):  # what an f-string holds
            skip.update(set(ast.walk(node)) - {node})
        elif isinstance(node, DEFS) and ast.get_docstring(node, False):
            skip.add(node.body[0].value)  # and docstrings
        text = isinstance(getattr(node, "value", None), str)  # not bytes
        if node in skip or not (text or isinstance(node, ast.JoinedStr)):
            continue
        segment = ast.get_source_segment(source, node)
        literals = [m for m in LITERAL.finditer(segment) if m["quote"]]
        kinds = [literal["prefix"].lower() for literal in literals]
        if len({"r" in kind for kind in kinds}) > 1:
            raise ValueError(
                f"line {node.lineno}: a string joins raw and "
                "plain pieces; make them all raw or all plain"
            )
        prefix = "r" * ("r" in kinds[0]) + "f" * any("f" in k for k in kinds)
        double = "f" in prefix  # a plain piece's braces, in an f-string
        key = "".join(
            lit["body"].translate(BRACES if double and "f" not in kind else {})
            for lit, kind in zip(literals, kinds)
        )
        start = node.lineno, node.col_offset
        end = node.end_lineno, node.end_col_offset
        quote = literals[0]["quote"]
        item = CodeString(start, end, key, prefix, quote, len(literals))
        if every or _shown(node, parents, key):
            found.append(item)
    return sorted(found, key=lambda item: item.start)


def translate_code(source, lookup):
    """Return source with every string that lookup(key) translates
    replaced, docstrings aside: visible or not, so that a dictionary key or
    a comparison keeps matching the label it names."""
    lines = source.split("\n")
    for item in reversed(code_strings(source, every=True)):
        text = lookup(item.key)
        if not text or text == item.key:
            continue
        (row, col), (end_row, end_col) = item.start, item.end
        # in characters: ast counts UTF-8 bytes
        col = len(lines[row - 1].encode()[:col].decode())
        end_col = len(lines[end_row - 1].encode()[:end_col].decode())
        room = max(WIDTH - col - len(item.prefix) - 2, 20)
        pieces = _pieces(text, room) if item.pieces > 1 else [text]
        new = [f"{item.prefix}{item.quote}{p}{item.quote}" for p in pieces]
        new[0] = lines[row - 1][:col] + new[0]
        new[1:] = [" " * col + piece for piece in new[1:]]  # a piece a line
        new[-1] += lines[end_row - 1][end_col:]
        lines[row - 1 : end_row] = new
    return "\n".join(lines)


def _pieces(text, room):
    """Return text cut into pieces of at most room characters, but words."""
    # words, keeping a {placeholder} (one nested {} allowed, as in
    # {name:>{width}}) and the space after each word whole
    words = re.findall(r"(?:\{(?:[^{}]|\{[^{}]*\})*\}|[^\s{])+\s*|\s+", text)
    if "".join(words) != text:
        raise ValueError(f"cannot cut into pieces: {text!r}")
    pieces = [""]
    for word in words:
        if pieces[-1] and len(pieces[-1]) + len(word.rstrip()) > room:
            pieces.append("")
        pieces[-1] += word
    return pieces
