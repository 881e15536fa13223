"""The page's script is its ES modules (solver/site/web/src) bundled by esbuild (pinned in package.json) into the
committed solver/site/web/page.js: rebuilt here, it is byte for byte the committed file, its import graph has no
circle, and each core module names its Python twin, which still exists."""
import ast
import json
import re
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent
WEB = ROOT / "solver" / "site" / "web"
ESBUILD = ROOT / "node_modules" / ".bin" / "esbuild"
pytestmark = pytest.mark.source
needs_esbuild = pytest.mark.skipif(not ESBUILD.exists() or shutil.which("node") is None,
                                   reason="esbuild is not installed: npm ci (CI does)")


def _build(tmp_path, name="page"):
    """npm run build's own command for one bundle (package.json's build:page, build:worker or build:scanner), into
    tmp_path."""
    script = json.loads((ROOT / "package.json").read_text())["scripts"][f"build:{name}"]
    args = shlex.split(script)
    out, meta = tmp_path / f"{name}.js", tmp_path / f"{name}-meta.json"
    args = [str(ESBUILD)] + [f"--outfile={out}" if a.startswith("--outfile=") else
                             f"--metafile={meta}" if a.startswith("--metafile=") else a for a in args[1:]]
    p = subprocess.run(args, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    return out.read_bytes(), json.loads(meta.read_text())


@needs_esbuild
@pytest.mark.parametrize("name", ["page", "worker", "scanner"])
def test_the_committed_bundle_is_the_modules_bundled(tmp_path, name):
    built, _ = _build(tmp_path, name)
    assert built == (WEB / f"{name}.js").read_bytes(), f"solver/site/web/{name}.js is stale: run npm run build and commit it"


@needs_esbuild
def test_the_modules_import_each_other_without_a_circle_and_all_are_used(tmp_path):
    _, meta = _build(tmp_path)
    graph = {path: [i["path"] for i in entry["imports"]] for path, entry in meta["inputs"].items()}
    for entry_point in ("worker", "scanner"):
        _, other = _build(tmp_path, entry_point)
        graph.update({path: [i["path"] for i in entry["imports"]] for path, entry in other["inputs"].items()})
    on_disk = {str(p.relative_to(ROOT)) for p in (WEB / "src").rglob("*.js")} - {"solver/site/web/src/core/types.js"}
    assert on_disk <= set(graph), on_disk - set(graph)
    state = {}

    def visit(node, trail):
        if state.get(node) == "done":
            return
        assert state.get(node) != "open", f"an import circle: {' -> '.join(trail + [node])}"
        state[node] = "open"
        for nxt in graph.get(node, []):
            visit(nxt, trail + [node])
        state[node] = "done"

    for node in graph:
        visit(node, [])
    core = [p for p in graph if "/src/core/" in p]
    assert all(not i.startswith("solver/site/web/src/page") and "/tabs/" not in i for p in core for i in graph[p]), \
        "the core imports only the core"
    page = [p for p in graph if "/src/page/" in p]
    assert all("/tabs/" not in i and not i.endswith("main.js") for p in page for i in graph[p]), \
        "the page's shared modules import no tab: arrows run down, core <- page <- tabs <- main"
    tab = lambda path: path.split("/tabs/")[1].split("/")[0] if "/tabs/" in path else None   # noqa: E731
    assert all(tab(i) in (None, tab(p)) for p in graph if tab(p) for i in graph[p]), "no tab imports another tab"


TWIN = re.compile(r"Twin: (.*?);", re.S)


def test_each_python_twin_names_its_page_twins():
    """The other direction: a Python module named as a twin by a core module says so in its docstring."""
    seen = 0
    for path in sorted((WEB / "src" / "core").glob("*.js")):
        if path.name in ("index.js", "types.js"):
            continue
        m = TWIN.search(path.read_text().split("*/", 1)[0])
        for module in re.findall(r"(solver/[\w/]+\.py)", m.group(1).replace("\n *", " ")):
            doc = ast.get_docstring(ast.parse((ROOT / module).read_text())) or ""
            assert f"solver/site/web/src/core/{path.name}" in doc, f"{module} does not name its twin {path.name}"
            seen += 1
    assert seen >= 14


def test_each_core_module_names_python_twins_that_exist():
    """A header's "Twin: solver/x.py (f, g), ..." names Python functions, classes or constants that still exist."""
    seen = 0
    for path in sorted((WEB / "src" / "core").glob("*.js")):
        if path.name in ("index.js", "types.js"):
            continue
        head = path.read_text().split("*/", 1)[0]
        m = TWIN.search(head)
        assert m, f"{path.name}: its header names no Python twin"
        for module, names in re.findall(r"(solver/[\w/]+\.py)(?: \(([^)]*)\))?", m.group(1).replace("\n *", " ")):
            text = (ROOT / module).read_text()
            for name in filter(None, (n.strip().split(".")[0] for n in (names or "").split(","))):
                assert re.search(rf"^(?:def|class) {name}\b|^{name} = |^    def {name}\b", text, re.M), \
                    f"{path.name}: {module} has no {name}"
                seen += 1
        assert "fixture" in head, f"{path.name}: its header names no fixture"
    assert seen >= 20


def test_each_core_module_and_its_python_twin_share_a_stem_and_name_each_other():
    """One twin each way: a core module names exactly one Python module, with its own stem; a Python module that
    says "Twin in the page" names exactly one core module, with its own stem, which names it back."""
    pairs = {}
    for path in sorted((WEB / "src" / "core").glob("*.js")):
        if path.name in ("index.js", "types.js"):
            continue
        m = TWIN.search(path.read_text().split("*/", 1)[0])
        modules = re.findall(r"(solver/[\w/]+\.py)", m.group(1).replace("\n *", " "))
        assert len(modules) == 1, f"{path.name} twins {modules}: one Python module, or split it"
        assert Path(modules[0]).stem == path.stem, f"{path.name} and {modules[0]} do not share a stem"
        pairs[modules[0]] = path.name
    for module in sorted((ROOT / "solver").rglob("*.py")):
        doc = ast.get_docstring(ast.parse(module.read_text())) or ""
        said = re.findall(r"Twin in the page: ``solver/site/web/src/core/(\w+\.js)``", doc)
        if said:
            rel = str(module.relative_to(ROOT))
            assert len(said) == 1 and pairs.get(rel) == said[0], f"{rel} names {said}; the page names {pairs.get(rel)}"
    assert len(pairs) >= 14
