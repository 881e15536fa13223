"""The API reference, built by Sphinx from the docstrings (autodoc) with the furo theme; the guide pages are the
Markdown of docs/ (MyST). ``python -m sphinx -W -b html docs build/docs`` builds it (tests/across/test_docs.py
does, warnings as errors); the Pages workflow publishes it beside the app, under docs/. Why Sphinx: CONTRIBUTING.md."""
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from solver.version import __version__  # noqa: E402  (the checkout's package, not an installed one)

project = "gonuts-solve"
author = "the gonuts-solve developers"
release = __version__
extensions = ["sphinx.ext.autodoc", "myst_parser"]
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
root_doc = "index"
# the reference and the pages it leads with; the other Markdown of docs/ is read on GitHub and in the checkout
include_patterns = ["index.rst", "api.rst", "first-hour.md", "library.md"]
html_theme = "furo"
html_title = f"gonuts-solve {release}"
autodoc_typehints = "signature"
autodoc_member_order = "bysource"
myst_heading_anchors = 3
# library.md links the README and tables/README.md, which live beside docs/, not in the reference; and a type
# named in a signature (Table) is one class under two names, solver.Table and solver.api.Table, its home
suppress_warnings = ["myst.xref_missing", "ref.python"]
