"""The checks of the notebooks' claims: one file per notebook, named after it
(tests/claims/01_masked_softmax.py for notebooks/01_masked_softmax.ipynb),
run by tests/claims/plugin.py in the notebook's own kernel."""
