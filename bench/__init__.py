"""Speed against the reference implementations; run from the project root
as `python -m bench.NAME` (`make bench` runs them all)."""
