"""Scripts that build, check and test the project; imported by the tests
and benches as `tools.NAME` (from the project root)."""
