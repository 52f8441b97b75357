"""The checks of the exercises of notebook 07:
notebooks/07_attention_comparison.ipynb."""

import math

from ..language import number
from .kit import call_answer, not_yet, right

__all__ = [
    "check_score_of_counts",
]


def _book_formula(row, exponents, penalty):
    """Return 100 x BP x prod p_n ** w_n for a row of counts (matches for
    n = 1..4, totals, translation length, reference length)."""
    score = 100 * math.prod(
        (row[n] / row[4 + n]) ** w for n, w in enumerate(exponents)
    )
    return score * math.exp(min(0, 1 - row[9] / row[8])) if penalty else score


def _brevity_hint(score, row, exponents, penalty):
    """Return a hint if score is the formula with a brevity penalty that
    swaps r and c or forgets the min."""
    plain = _book_formula(row, exponents, False)
    c, r = row[8], row[9]  # the translation's length, the reference's
    if penalty and math.isclose(
        score, plain * math.exp(min(0, 1 - c / r)), rel_tol=1e-9
    ):
        return not_yet(
            "r and c are swapped: the brevity penalty is exp(min(0, 1 - r / "
            "c)), r the reference length, c the translation's"
        )
    if penalty and math.isclose(
        score, plain * math.exp(1 - r / c), rel_tol=1e-9
    ):
        return not_yet(
            "the brevity penalty never exceeds 1: exp(min(0, 1 - r / c))"
        )
    return None


def check_score_of_counts(score_of_counts):
    """Check exercise 07 A: the book's score from a row of counts."""
    # matches and totals for n = 1..4, translation and reference lengths
    # one translation longer than its reference, then one shorter
    rows = [
        [30, 12, 5, 2, 40, 35, 30, 25, 40, 38],
        [7, 2, 1, 0, 9, 8, 7, 6, 9, 12],
    ]
    cases = [
        (row, exponents, penalty)
        for row in rows
        for exponents in ([1 / 2, 1 / 4], [1 / 2, 1 / 2])
        for penalty in (True, False)
    ]
    for row, exponents, penalty in cases:
        score, hint = call_answer(score_of_counts, row, exponents, penalty)
        if hint:
            return hint
        if not isinstance(score, (int, float)):
            kind = type(score).__name__
            return not_yet(
                "the score must be a number (a tensor's .item()), got {kind}",
                kind=kind,
            )
        expected = _book_formula(row, exponents, penalty)
        if math.isclose(score, expected, rel_tol=1e-9):
            continue
        if math.isclose(100 * score, expected, rel_tol=1e-9):
            return not_yet("multiply by 100")
        if math.isclose(
            score, _book_formula(row, exponents, not penalty), rel_tol=1e-9
        ):
            if penalty:
                return not_yet(
                    "with penalty=True, the brevity penalty exp(min(0, 1 - r "
                    "/ c)) must be in"
                )
            return not_yet(
                "with penalty=False, the brevity penalty exp(min(0, 1 - r / "
                "c)) must be left out"
            )
        hint = _brevity_hint(score, row, exponents, penalty)
        if hint:
            return hint
        return not_yet(
            "with exponents {exponents}, the score is not 100 x the product "
            "of the p_n ** w_n (p_n: matches / totals)",
            exponents=number(exponents, "g"),
        )
    return right(
        "the book's formula on two rows of counts, with both pairs of "
        "exponents, with and without the brevity penalty"
    )
