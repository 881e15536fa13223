"""The package's version (pyproject.toml's), in a module of its own: every module reads it from here, so none of
them depends on the package's front door (``solver/__init__.py``)."""
__version__ = "0.1.0"
