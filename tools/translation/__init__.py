"""The Brazilian Portuguese edition (python -m tools.translation)."""

import logging

# translate-toolkit's fuzzy matcher: without RapidFuzz, slower, no warning
logging.getLogger("translate.search.lshtein").setLevel(logging.ERROR)
