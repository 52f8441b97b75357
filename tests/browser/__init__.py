"""The browser tests and their JupyterLab driver."""
