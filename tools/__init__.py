"""What the Makefile runs: the exporter, the translation, student-edition
and handout builders, and what they share (project.py)."""
