"""A concept question with choices, whose explanation shows after a choice.

The question is the notebook's (a markdown cell tagged `quiz`); each
notebook's module builds its choices with ``quiz`` and their words through
``tr``, so that they follow the notebook's language.
"""

import html

import ipywidgets as widgets

from .kit import Verdict

__all__ = ["Quiz", "quiz"]


class Quiz(widgets.VBox):
    """Choices as radio buttons, none chosen; a choice shows its verdict
    and why (✔ Right: ... or ✘ Not yet: ...) under them."""

    def __init__(self, choices):
        """choices: (text, is_right, why) per choice, in the order shown."""
        texts = [text for text, _, _ in choices]
        if len(set(texts)) != len(texts) or len(texts) < 2:
            raise ValueError(f"a quiz needs two or more choices: {texts}")
        if sum(bool(is_right) for _, is_right, _ in choices) != 1:
            raise ValueError(f"a quiz needs one right choice: {texts}")
        self.why = {text: (is_right, why) for text, is_right, why in choices}
        self.buttons = widgets.RadioButtons(
            options=texts, value=None, layout=widgets.Layout(width="auto")
        )
        self.feedback = widgets.HTML()
        self.buttons.observe(self._chosen, names="value")
        super().__init__([self.buttons, self.feedback])

    def _chosen(self, change):
        if change["new"] is None:
            self.feedback.value = ""
            return
        verdict = Verdict(*self.why[change["new"]])
        self.feedback.value = f"<p>{html.escape(verdict.line)}</p>"

    def choose(self, text):
        """Choose a choice as a click would; return the line shown."""
        self.buttons.value = text
        return html.unescape(self.feedback.value[3:-4])


def quiz(*choices):
    """Return a Quiz of choices, each (text, is_right, why)."""
    return Quiz(choices)
