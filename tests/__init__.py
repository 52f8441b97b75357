"""The tests: a package, so that `tests.d2l_reference` and the other
shared modules import from here and never from another `tests`."""
