"""The kernel in WebAssembly (solver/engine/wasm.py): the committed ``solver/site/web/kernels.wasm`` is what
``kernels.c`` compiles to with the stated command, it imports nothing and exports the kernel, and the turn models
that ``node --test tests/js`` solves it with (tests/fixtures/kernel_models.json) are today's Python's. That the
module gives the bytes of ``gonuts-solve build`` is checked under Node (tests/js/solve.test.mjs) and, here, in
Chromium."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from solver.engine import wasm

pytestmark = pytest.mark.source
ROOT = Path(__file__).resolve().parent.parent.parent


def _can_compile(tmp_path) -> bool:
    if shutil.which(wasm.CC) is None:
        return False
    probe = tmp_path / "probe.c"
    probe.write_text("int f(void) { return 1; }\n")
    p = subprocess.run([wasm.CC, "--target=wasm32-wasi", "-mexec-model=reactor", "-o", str(tmp_path / "p.wasm"),
                        str(probe)], capture_output=True, text=True, timeout=120)
    return p.returncode == 0


def test_the_committed_module_is_kernels_c_compiled(tmp_path):
    if not _can_compile(tmp_path):
        pytest.skip(f"{wasm.CC} cannot target wasm32-wasi here: apt-get install clang-19 lld-19 "
                    "libclang-rt-19-dev-wasm32 wasi-libc (.ci/run does)")
    built = wasm.build(tmp_path / "kernels.wasm")
    assert built.read_bytes() == wasm.WASM.read_bytes(), \
        "solver/site/web/kernels.wasm is stale: run python -m solver.engine.wasm and commit it"


def test_the_module_imports_nothing_and_exports_the_kernel():
    if shutil.which("node") is None:
        pytest.skip("node is not installed")
    script = ("const m = new WebAssembly.Module(require('fs').readFileSync(process.argv[1]));"
              "console.log(JSON.stringify([WebAssembly.Module.imports(m), WebAssembly.Module.exports(m).map(e => e.name)]))")
    p = subprocess.run(["node", "-e", script, str(wasm.WASM)], capture_output=True, text=True, timeout=60)
    imports, exports = json.loads(p.stdout)
    assert imports == [] and set(wasm.EXPORTS) | {"memory", "_initialize"} == set(exports)


def test_the_committed_turn_models_are_todays_pythons():
    """The models whole; of the 300 payout digests, one in ten (all of them take Python 20 s: the writer does it)."""
    sys.path.insert(0, str(ROOT / "tests"))
    import wasm_fixtures
    committed = json.loads(wasm_fixtures.FIXTURE.read_text())
    assert committed["games"] == json.loads(json.dumps(wasm_fixtures.models())), \
        "tests/fixtures/kernel_models.json is stale: run python tests/wasm_fixtures.py"
    assert committed["cycling"] == json.loads(json.dumps(wasm_fixtures.cycling())), \
        "tests/fixtures/kernel_models.json is stale: run python tests/wasm_fixtures.py"
    keys = [f"{n}-{t}-{r}" for n, t, r in wasm_fixtures.PAYOUTS]
    assert sorted(committed["payouts"]) == sorted(keys)
    for n, t, r in wasm_fixtures.PAYOUTS[::10]:
        assert committed["payouts"][f"{n}-{t}-{r}"] == wasm_fixtures.payout_digest(n, t, r), (n, t, r)


def test_the_models_name_the_games_of_the_digests():
    sys.path.insert(0, str(ROOT / "tests"))
    import wasm_fixtures
    from wheel_check import GAMES
    assert sorted(wasm_fixtures.GAMES) == sorted(name for _, name in GAMES)
    assert all((ROOT / "tables" / name).is_file() for name in wasm_fixtures.SHIPPED)
    from table_digests import CYCLING
    assert sorted(wasm_fixtures.CYCLING) == sorted(name for _, name in CYCLING)


@pytest.mark.browser
def test_the_module_gives_the_bytes_of_build_in_chromium(browser):
    """The committed module and core/solve.js, served from this checkout on 127.0.0.1, in Chromium: every game of
    kernel_models.json, from Python's turn model and (Go Nuts!) from the page's own, hashes to the digests of
    gonuts-solve build, as under Node (tests/js/solve.test.mjs)."""
    pytest.importorskip("playwright", reason="the page's browser tests need playwright (pip install \".[test]\")")
    from test_website import serve
    proc, url = serve(ROOT)
    try:
        page = browser.new_page()
        page.goto(url)
        got = page.evaluate("""async (root) => {
            const { solveGame, kernelData, unpackRoll } = await import(root + "solver/site/web/src/core/solve.js");
            const json = async (p) => (await fetch(root + p)).json();
            const [models, digests, page] = await Promise.all([json("tests/fixtures/kernel_models.json"),
                json("tests/fixtures/table_digests.json"), json("tests/fixtures/page-t50.json")]);
            const { instance } = await WebAssembly.instantiate(await (await fetch(root + "solver/site/web/kernels.wasm")).arrayBuffer(), {});
            instance.exports._initialize();
            const sha = async (v) => [...new Uint8Array(await crypto.subtle.digest("SHA-256", v))]
                .map((b) => b.toString(16).padStart(2, "0")).join("");
            const last = (text) => text.split(" ").pop();
            const out = [];
            for (const [name, data] of Object.entries(models.games)) {
              const want = data.digests || digests.tables[name];
              const sources = [["python", data]];
              if (name.startsWith("gonuts-")) sources.push(["page", kernelData(page.readings[name.includes("summary") ? "summary" : "rulebook"],
                data.players, data.target, [1, 1], data.settings)]);
              for (const [source, d] of sources) {
                const r = solveGame(instance.exports, d);
                const S = d.target ** d.players, count = d.target * (d.substates + 1);
                const roll = want.roll_bits ? r.rollBits : unpackRoll(r.rollBits, S, d.nbytes, count);
                const same = [await sha(r.startWin) === last(want.start_win),
                              await sha(roll) === last(want.roll_bits || want.roll),
                              !want.roll_win || (await sha(r.rollWin) === last(want.roll_win) && await sha(r.stopWin) === last(want.stop_win))];
                out.push([name, source, same.every(Boolean)]);
              }
            }
            return out;
        }""", url)
        page.close()
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    assert len(got) == 21 and all(ok for _, _, ok in got)      # 10 Go Nuts! games twice, and Pig, [g for g in got if not g[2]]
