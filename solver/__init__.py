"""gonuts-solve: optimal play for the press-your-luck dice game Go Nuts!.

Importing the package is cheap (numpy only); the compiled solver and plotting
are imported by the functions that need them.
"""
__version__ = "0.1.0"
