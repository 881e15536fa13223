"""The command line from a checkout: ``python cli.py ...`` or ``python -m cli ...`` is ``gonuts-solve ...``.

The command line itself is ``solver.commands.cli`` (an installed wheel puts no top-level ``cli`` module into
site-packages, a name other distributions use too); its ``cli`` group and ``main`` are here for scripts and
tests that import them from the checkout.
"""
from solver.commands.cli import cli, main  # noqa: F401

if __name__ == "__main__":
    main()
