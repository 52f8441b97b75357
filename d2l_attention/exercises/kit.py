"""What every exercise's check uses: a verdict, the answer called safely,
its shape checked."""

import torch

from ..language import tr

__all__ = ["Verdict", "right", "not_yet", "call_answer", "shape_hint"]


class Verdict:
    """What the check of an exercise found: right, or a hint.

    Shows as one line in the notebook's language (use_language).
    """

    def __init__(self, passed, message):
        self.passed, self.message = passed, message
        # the whole line in the language in use when the check ran
        if passed:
            self.line = tr("✔ Right: {message}", message=message)
        else:
            self.line = tr("✘ Not yet: {message}", message=message)

    def __repr__(self):
        return self.line


def right(message, **values):
    """Return the verdict that the answer is right: tr(message, **values)."""
    return Verdict(True, tr(message, **values))


def not_yet(message, **values):
    """Return the verdict that the answer is not right yet, and why."""
    return Verdict(False, tr(message, **values))


def call_answer(answer, *args):
    """Return (answer(*args), None), or (None, a hint) if that fails."""
    if not callable(answer):
        name = type(answer).__name__
        return None, not_yet(
            "the answer must be a function, got {name}", name=name
        )
    try:
        result = answer(*args)
    except Exception as error:
        kind = type(error).__name__
        return None, not_yet(
            "the answer raised {kind}: {error}", kind=kind, error=error
        )
    if result is None:
        return None, not_yet(
            "the answer returned None: write its code in place of the `...`, "
            "and `return` the result"
        )
    return result, None


def shape_hint(result, shape):
    """Return a hint unless result is a tensor of the given shape.

    A check compares the result once cast to float32 (result.float()), so
    that a float64 answer is as good as a float32 one.
    """
    if not torch.is_tensor(result):
        kind = type(result).__name__
        return not_yet(
            "the answer must return a tensor, got {kind}", kind=kind
        )
    if tuple(result.shape) != tuple(shape):
        got, want = tuple(result.shape), tuple(shape)
        return not_yet(
            "the result must have shape {want}, got {got}", want=want, got=got
        )
    return None
