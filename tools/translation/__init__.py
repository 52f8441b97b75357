"""The Brazilian Portuguese edition: PO files from the English notebooks,
notebooks from the PO files (python -m tools.translation update|build)."""

import logging

# translate-toolkit's fuzzy matcher runs without RapidFuzz, only slower
logging.getLogger("translate.search.lshtein").setLevel(logging.ERROR)
