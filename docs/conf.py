"""The API reference, built by Sphinx from the docstrings (autodoc) with the furo theme; the guide pages are the
Markdown of docs/ (MyST). ``python -m sphinx -W -b html docs build/docs`` builds it (tests/across/test_docs.py
does, warnings as errors); the Pages workflow publishes it beside the app, under docs/. Why Sphinx: CONTRIBUTING.md."""
import hashlib
import sys
import tempfile
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from solver.version import __version__  # noqa: E402  (the checkout's package, not an installed one)

project = "gonuts-solve"
author = "the gonuts-solve developers"
release = __version__
extensions = ["sphinx.ext.autodoc", "sphinx.ext.napoleon", "sphinx.ext.intersphinx", "myst_parser"]
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

# Sections as numpy's reference has them (Parameters, Returns, Raises, Examples: numpydoc's style, read by napoleon)
napoleon_google_docstring = False
napoleon_numpy_docstring = True
napoleon_use_rtype = False
napoleon_preprocess_types = True
napoleon_type_aliases = {
    "Table": "solver.Table", "Rules": "solver.Rules", "Tables": "solver.Tables",
    "Advice": "solver.play.advise.Advice", "TablePolicy": "solver.lab.policies.TablePolicy",
    "Decisions": "solver.lab.decisions.Decisions", "Thresholds": "solver.lab.policies.Thresholds",
    "EvalResult": "solver.engine.evaluate.EvalResult", "SimReport": "solver.lab.strategy.SimReport",
    "SolveResult": "solver.engine.solve.SolveResult", "GameOptions": "solver.game.rules.GameOptions",
    "Figure": "matplotlib.figure.Figure", "Axes": "matplotlib.axes.Axes", "Path": "pathlib.Path",
    "ndarray": "numpy.ndarray", "GonutsError": "solver.errors.GonutsError",
}
html_static_path = ["_static"]
html_css_files = ["wrap.css"]        # long example lines wrap in their boxes instead of being cut


def _inventory(name: str) -> tuple[str, str]:
    """Where a project's documentation lives and an inventory of the names the reference links there
    (docs/inventories/NAME.txt, Sphinx's inventory lines, made into the file intersphinx reads): the links
    resolve with no network, at build time as in the tests; a reader's browser follows them to the project."""
    text = (ROOT / "docs" / "inventories" / f"{name}.txt").read_text(encoding="utf-8")
    head = dict(line[2:].split(": ", 1) for line in text.splitlines() if line.startswith("# "))
    body = "".join(line + "\n" for line in text.splitlines() if line and not line.startswith("#"))
    blob = (f"# Sphinx inventory version 2\n# Project: {head['Project']}\n# Version: {head['Version']}\n"
            "# The remainder of this file is compressed using zlib.\n").encode() + zlib.compress(body.encode())
    path = Path(tempfile.gettempdir()) / f"gonuts-solve-{name}-{hashlib.sha256(blob).hexdigest()[:16]}.inv"
    if not path.exists():
        tmp = path.with_suffix(f".{id(blob)}.tmp")
        tmp.write_bytes(blob)
        tmp.replace(path)
    return head["Base"], str(path)


intersphinx_mapping = {name: _inventory(name) for name in ("python", "numpy", "matplotlib")}
