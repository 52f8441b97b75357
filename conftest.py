"""Every pytest run of the project, a notebook's alone included, runs the
checks of the notebooks' claims (tests/claims/) after the cells they name."""

pytest_plugins = ["tests.claims.plugin"]
