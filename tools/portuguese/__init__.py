"""The Brazilian Portuguese edition, built from the English notebooks.

    python -m tools.portuguese update [NOTEBOOK ...]  # locale/pt_BR/*.po
    python -m tools.portuguese build [NOTEBOOK ...]   # notebooks/pt_BR/

`update` merges a notebook's English (markdown_blocks: the blocks of its
markdown; code_strings: the strings its code shows a student) into its PO
file as msgmerge does (catalog). `build` writes the Portuguese notebook
from it, keeping the outputs of the code cells that did not change, and
prints the notebooks to run again. `checks` holds what
tests/test_translations.py requires of each translation.
"""

import logging

# translate-toolkit warns at import that RapidFuzz is missing and falls back
# to a slower matcher, fast enough here: silence that warning
logging.getLogger("translate.search.lshtein").setLevel(logging.ERROR)
