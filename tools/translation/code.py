"""The strings of code cells that a student sees (figure labels, widget
descriptions, printed sentences), found with an ast walk, and replaced."""

import ast
import io
import re
import tokenize
from dataclasses import dataclass

from .markdown import LETTERS, MATH, PLACEHOLDER, WIDTH

# keyword arguments whose strings are shown; and those that never are
VISIBLE_KEYWORDS = {"title", "titles", "xlabel", "ylabel", "label",
                    "description", "options", "placeholder", "tooltip",
                    "suptitle", "legend", "text", "value"}  # fmt: skip
HIDDEN_KEYWORDS = {"color", "cmap", "loc", "linestyle", "ls", "marker",
                   "dtype", "device", "mode", "reduction", "ha", "va",
                   "fontsize", "width", "layout", "style", "norm",
                   "interpolation", "aspect", "continuous_update", "xscale",
                   "yscale", "boxstyle", "indexing", "facecolor",
                   "edgecolor", "fc", "ec", "nonlinearity", "action",
                   "arrowstyle", "fmt", "weight", "family"}  # fmt: skip
# calls whose string arguments are shown
VISIBLE_CALLS = {"print", "set_title", "set_xlabel", "set_ylabel",
                 "title", "xlabel", "ylabel", "set_xticks", "set_yticks",
                 "set_xticklabels", "set_yticklabels", "bar", "barh",
                 "suptitle", "legend", "text", "annotate", "Label", "HTML",
                 "Markdown", "AssertionError", "ValueError", "TypeError"}  # fmt: skip
# strings that name code rather than say something: identifiers,
# attributes, calls, CSS sizes
CODE_LIKE = re.compile(r"^[\w.]*_[\w.]*$|\w\.\w|\w\(|^\d+(px|%)$")
STRING = re.compile(r"^(?P<prefix>[A-Za-z]*)(?P<quote>'''|\"\"\"|'|\")"
                    r"(?P<body>.*)(?P=quote)$", re.S)  # fmt: skip
BRACKETS = (ast.List, ast.Tuple, ast.Set, ast.Dict, ast.ListComp, ast.SetComp,
            ast.DictComp, ast.GeneratorExp)  # fmt: skip
FSTRING = getattr(tokenize, "FSTRING_START", -1), getattr(
    tokenize, "FSTRING_END", -1)


@dataclass
class CodeString:
    """One string literal, or several joined by implicit concatenation."""

    start: tuple  # (row, col) of its first character, rows from 1
    end: tuple
    key: str  # the text between the quotes, as written
    prefix: str
    quote: str
    pieces: int


def _literals(segment):
    """Return the source of each literal of a string's source."""
    lines, pieces, depth = ("(" + segment + ")").split("\n"), [], 0
    for token in tokenize.generate_tokens(io.StringIO("\n".join(lines)).readline):
        if token.type == tokenize.STRING and not depth:
            pieces.append(token.string)
        depth += (token.type == FSTRING[0]) - (token.type == FSTRING[1])
        if token.type == FSTRING[0] and depth == 1:
            start = token.start
        elif token.type == FSTRING[1] and not depth:  # Python 3.12 and later
            text = "\n".join(lines[start[0] - 1 : token.end[0]])
            last = len(lines[token.end[0] - 1]) - token.end[1]
            pieces.append(text[start[1] : len(text) - last])
    return pieces


def _named(parent, node):
    """Return the name that parent gives to its child node: a keyword
    argument's, a default's parameter, an assignment's last target."""
    if isinstance(parent, ast.keyword):
        return parent.arg
    if isinstance(parent, ast.Assign) and node is parent.value:
        target = parent.targets[-1]
        return getattr(target, "id", getattr(target, "attr", None))
    if isinstance(parent, ast.arguments):
        params = parent.posonlyargs + parent.args
        params = params[len(params) - len(parent.defaults) :] + parent.kwonlyargs
        values = parent.defaults + parent.kw_defaults
        return next((p.arg for p, v in zip(params, values) if v is node), None)
    return None


def _context(node, parents):
    """Return (keyword, call, subscripted) of a string node: the name it is
    given to, directly or in brackets, the call that holds it, and whether
    it is a subscript."""
    keyword, starts = None, set()
    while (parent := parents.get(node)) is not None:
        if isinstance(node, (ast.Constant, ast.JoinedStr, *BRACKETS)):
            starts.add((node.lineno, node.col_offset))
        if isinstance(parent, ast.Call) and node is not parent.func:
            func = parent.func
            return keyword, getattr(func, "attr", getattr(func, "id", None)), False
        if isinstance(parent, ast.Subscript) and node is parent.slice:
            return keyword, None, True
        if (getattr(node, "lineno", 0), getattr(node, "col_offset", 0)) in starts:
            keyword = keyword or _named(parent, node)
        node = parent
    return keyword, None, False


def _visible(text, keyword, call, subscripted):
    """Return whether a student may see a string: any string with a word,
    but subscripts, styling arguments and names of code."""
    bare = PLACEHOLDER.sub(" ", MATH.sub(" ", text)).replace("\\n", " ")
    if not LETTERS.search(bare) or keyword in HIDDEN_KEYWORDS or subscripted:
        return False
    if keyword in VISIBLE_KEYWORDS or call in VISIBLE_CALLS:
        return True
    return not CODE_LIKE.search(bare.strip())


def _join(literals, start, end):
    """Return the CodeString of a string's literals (a match each)."""
    raw = {"r" in literal["prefix"].lower() for literal in literals}
    if len(raw) > 1:
        raise ValueError(f"line {start[0]}: a string joins raw and plain "
                         "pieces; make them all raw or all plain")  # fmt: skip
    is_f = any("f" in literal["prefix"].lower() for literal in literals)
    body = ""
    for literal in literals:  # a plain piece's braces, in an f-string
        plain = is_f and "f" not in literal["prefix"].lower()
        text = literal["body"]
        body += text.replace("{", "{{").replace("}", "}}") if plain else text
    prefix = ("r" if raw.pop() else "") + ("f" if is_f else "")
    return CodeString(start, end, body, prefix, literals[0]["quote"], len(literals))


def code_strings(source, every=False):
    """Return the CodeStrings of a code cell that a student may see.

    With every=True, all of its strings (but docstrings): a translated
    string is replaced everywhere in a cell, so that a dictionary key or a
    comparison keeps matching the label it names.
    """
    if source.startswith("#@save") or source.lstrip().startswith("%"):
        return []
    tree, lines = ast.parse(source), source.split("\n")
    parents = {c: n for n in ast.walk(tree) for c in ast.iter_child_nodes(n)}
    skip = set()  # docstrings, and what an f-string holds
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            skip.update(n for n in ast.walk(node) if n is not node)
        elif getattr(node, "body", None) and isinstance(node.body, list):
            first = node.body[0]
            if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef,
                                 ast.AsyncFunctionDef)) and isinstance(
                first, ast.Expr) and isinstance(first.value, ast.Constant):  # fmt: skip
                skip.add(first.value)
    found = []
    for node in ast.walk(tree):
        if node in skip or not isinstance(node, ast.JoinedStr) and not (
            isinstance(node, ast.Constant) and isinstance(node.value, str)
        ):
            continue
        literals = _literals(ast.get_source_segment(source, node))
        start, end = ((row, len(lines[row - 1].encode()[:col].decode()))
                      for row, col in [(node.lineno, node.col_offset),
                                       (node.end_lineno, node.end_col_offset)])  # fmt: skip
        item = _join([STRING.match(text) for text in literals], start, end)
        if every or _visible(item.key, *_context(node, parents)):
            found.append(item)
    return sorted(found, key=lambda item: item.start)


def translate_code(source, lookup):
    """Return source with each visible string replaced by lookup(key)."""
    lines = source.split("\n")
    for item in reversed(code_strings(source, every=True)):
        text = lookup(item.key)
        if not text or text == item.key:
            continue
        (row, col), (end_row, end_col) = item.start, item.end
        head, tail = lines[row - 1][:col], lines[end_row - 1][end_col:]
        if item.pieces == 1:
            new = [head + _literal(item, text) + tail]
        else:  # rewrap the pieces, one per line, where the first one was
            new = _pieces(item, text, col)
            new[0] = head + new[0].lstrip()
            new[-1] += tail
        lines[row - 1 : end_row] = new
    return "\n".join(lines)


def _literal(item, text):
    """Return the literal of text, with item's prefix and quotes."""
    return f"{item.prefix}{item.quote}{text}{item.quote}"


def _pieces(item, text, col):
    """Return text cut into literals of at most WIDTH columns, indented by
    col."""
    room = max(WIDTH - col - len(item.prefix) - 2, 20)
    # words, keeping a {placeholder} (one nested {} allowed, as in
    # {name:>{width}}) and the space after each word whole
    words = re.findall(r"(?:\{(?:[^{}]|\{[^{}]*\})*\}|[^\s{])+\s*|\s+", text)
    if "".join(words) != text:
        raise ValueError(f"cannot cut into pieces: {text!r}")
    pieces, current = [], ""
    for word in words:
        if current and len(current) + len(word.rstrip()) > room:
            pieces.append(current)
            current = ""
        current += word
    pieces.append(current)
    return [" " * col + _literal(item, piece) for piece in pieces]
