"""``python -m prism``: the command-line interface (entry point :func:`prism.cli.main.main`)."""
