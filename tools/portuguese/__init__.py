"""The Brazilian Portuguese edition, built from the English notebooks.

    python -m tools.portuguese update [NOTEBOOK ...]  # locale/pt_BR/*.po
    python -m tools.portuguese build [NOTEBOOK ...]   # notebooks/pt_BR/

markdown_blocks and code_strings find the English a student reads, catalog
merges it into the PO files as msgmerge does, and build writes the
notebooks (tests/translation_checks.py checks the translations).
"""

import logging

# translate-toolkit's warning that RapidFuzz is missing: its fallback will do
logging.getLogger("translate.search.lshtein").setLevel(logging.ERROR)
