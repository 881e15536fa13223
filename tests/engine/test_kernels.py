"""The kernel loader: arrays checked before they reach C, a compile that hangs or is missing said in one line,
and everything that reads a shipped table working on a machine with no C compiler."""
from __future__ import annotations

import ctypes
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from solver.engine import kernels
from solver.engine.bits import packed_width
from solver.engine.solve import model_arrays
from solver.game.rules import Rules
from solver.game.turn import turn_model

ROOT = Path(__file__).resolve().parent.parent.parent


@pytest.fixture(scope="module")
def kernel():
    rules = Rules.from_options(reading="rulebook", target=6)
    model = turn_model(rules)
    with kernels.Kernel(2, 2, 6, 5, model.start, packed_width(6, 5), model_arrays(model, 6)) as k:
        yield k


@pytest.mark.parametrize("bad", ["float32", "read-only", "strided"])
def test_an_array_of_the_wrong_kind_is_refused_before_the_call(kernel, bad):
    W = np.zeros((36, 2))
    V = {"float32": W.astype(np.float32), "read-only": W.copy(), "strided": np.zeros((36, 4))[:, ::2]}[bad]
    if bad == "read-only":
        V.setflags(write=False)
    reps = np.zeros(1, np.int64)
    with pytest.raises(ctypes.ArgumentError):
        kernel.lib.evaluate_layer(ctypes.byref(kernel.model), reps, 0, 1, V, np.zeros((36, 4), np.uint8), 0,
                                  *kernels.NO_MIXES, np.zeros(8))


def _run(args, env, cwd=ROOT):
    return subprocess.run([sys.executable, "-m", "cli", *args], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=300)


def test_a_compile_that_takes_too_long_is_one_line(tmp_path):
    if shutil.which(os.environ.get("CC", "cc").split()[0]) is None:
        pytest.skip("no C compiler here")
    env = {**os.environ, "GONUTS_SOLVE_CACHE": str(tmp_path / "cache"), "GONUTS_SOLVE_COMPILE_TIMEOUT": "0.001",
           "GONUTS_SOLVE_KERNEL": "compile"}
    p = _run(["build", "--target", "8", "--speed", "1.5", "--out", str(tmp_path / "t.npz")], env)
    assert p.returncode == 1, p.stderr
    last = p.stderr.strip().splitlines()[-1]
    assert last.startswith("gonuts-solve: error: compiling the solver kernel with ") and "took more than 0.001 s" in last
    assert "Traceback" not in p.stderr and not (tmp_path / "t.npz").exists()
    p = _run(["build", "--target", "8", "--speed", "1.5", "--out", str(tmp_path / "t.npz")],
             {**env, "GONUTS_SOLVE_COMPILE_TIMEOUT": "soon"})
    assert p.returncode == 1 and p.stderr.strip().splitlines()[-1] == (
        'gonuts-solve: error: environment: GONUTS_SOLVE_COMPILE_TIMEOUT must be a number (like 0.5 or 1e-12), '
        'not "soon"')


def _no_compiler(tmp_path):
    """PATH holds only this Python, CC is unset and the cache is empty: no compiler and no compiled kernel."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "python").symlink_to(sys.executable)
    env = {k: v for k, v in os.environ.items() if k != "CC"}
    env.update(PATH=str(bin_dir), GONUTS_SOLVE_CACHE=str(tmp_path / "cache"))
    return env


FOUR_PLAYER_RECORD = {"format": "gonuts-game", "version": 1, "reading": "summary", "players": 4, "you": 2,
                      "events": [{"seat": 0, "roll": [2, 2, 1]}, {"seat": 0, "choice": "stop"},
                                 {"seat": 1, "roll": [0, 0, 5]}, {"seat": 2, "roll": [3, 1, 1]},
                                 {"seat": 2, "choice": "roll"}, {"seat": 2, "roll": [2, 1, 1]},
                                 {"seat": 2, "choice": "stop"}]}


@pytest.mark.slow
def test_without_a_c_compiler_the_shipped_tables_still_answer(tmp_path):
    env = _no_compiler(tmp_path)
    shipped = ROOT / "tables" / "gonuts-2p-t50-rulebook.npz"
    record = tmp_path / "game.json"
    record.write_text(json.dumps({"format": "gonuts-game", "version": 1, "reading": "rulebook", "players": 2,
                                  "you": 0, "events": [{"seat": 0, "roll": [2, 2, 1]}, {"seat": 0, "choice": "stop"}]}))
    for args in (["advise", "--scores", "23,31", "--turn", "7", "--dice", "3"], ["advise", "--scores", "1,2,3"],
                 ["info", str(shipped)], ["verify", str(shipped)], ["fair"], ["review", str(record)]):
        p = _run(args, env)
        assert p.returncode == 0, (args, p.stderr)
    p = _run(["build", "--target", "8", "--out", str(tmp_path / "corner.npz")], env)
    assert p.returncode == 0 and "from the table to 50, with no solve" in p.stdout, p.stderr   # no kernel needed
    # a game no shipped table holds (speed 1.5): it must be solved
    p = _run(["build", "--target", "8", "--speed", "1.5", "--out", str(tmp_path / "t.npz")], env)
    assert p.returncode == 1
    (line,) = p.stderr.strip().splitlines()           # refused before any work, and said once
    assert line.startswith("gonuts-solve: error: building a table needs the solver's compiled kernel") and \
        "apt-get install gcc" in line and "compiling" not in line
    assert not (tmp_path / "t.npz").exists() and not (tmp_path / "cache" / "kernels").exists()


@pytest.mark.slow
def test_without_a_c_compiler_every_game_of_the_default_page_answers(tmp_path):
    """The default page (2-4 players, both readings, target 50): the page and the site, and advise, practice
    and review of each game, on an empty cache with no compiler; 4 players from the shipped page data, said."""
    env = _no_compiler(tmp_path)
    for args in (["web", "--out", str(tmp_path / "page.html")], ["web", "--site", str(tmp_path / "site")]):
        p = _run(args, env)
        assert p.returncode == 0, (args, p.stderr)
    assert (tmp_path / "page.html").stat().st_size > 10_000_000 and (tmp_path / "site" / "index.html").is_file()
    record = tmp_path / "four.json"
    record.write_text(json.dumps(FOUR_PLAYER_RECORD))
    for players in (2, 3, 4):
        for reading in ("rulebook", "summary"):
            scores = ",".join(str(10 * k) for k in range(1, players + 1))
            p = _run(["advise", "--scores", scores, "--rules", reading, "--turn", "7", "--dice", "3", "--json"], env)
            assert p.returncode == 0, (players, reading, p.stderr)
            answer = json.loads(p.stdout)
            assert answer["action"] in ("roll", "stop") and answer["rules"]["players"] == players
            if players == 4:                          # the page's values, and the command says so
                assert answer["values"] == {"source": "page data", "precision": pytest.approx(7.6e-6, rel=0.01)}
                assert "answering from the page's values" in p.stderr
            else:
                assert "values" not in answer
            p = _run(["practice", "--players", str(players), "--rules", reading, "--count", "4", "--seed", "7",
                      "--json"], env)
            assert p.returncode == 0 and len(json.loads(p.stdout)["decisions"]) == 4, p.stderr
            game = {**FOUR_PLAYER_RECORD, "reading": reading, "players": players, "you": 0,
                    "events": FOUR_PLAYER_RECORD["events"][:2]}
            record.write_text(json.dumps(game))
            p = _run(["review", str(record), "--json"], env)
            assert p.returncode == 0, (players, reading, p.stderr)
            reviewed = json.loads(p.stdout)
            assert reviewed["decisions"][0]["optimal"] in ("roll", "stop")
            assert ("values" in reviewed) == (players == 4)          # the page's values, said


def test_review_takes_a_table_and_refuses_one_of_other_rules(tmp_path):
    record = tmp_path / "game.json"
    record.write_text(json.dumps({**FOUR_PLAYER_RECORD, "reading": "rulebook", "players": 2, "you": 0,
                                  "events": FOUR_PLAYER_RECORD["events"][:2]}))
    shipped = ROOT / "tables" / "gonuts-2p-t50-rulebook.npz"
    plain = _run(["review", str(record), "--json"], os.environ)
    given = _run(["review", str(record), "--table", str(shipped), "--json"], os.environ)
    assert plain.returncode == given.returncode == 0 and json.loads(plain.stdout) == json.loads(given.stdout)
    other = _run(["review", str(record), "--table", str(ROOT / "tables" / "gonuts-3p-t50-rulebook.npz")], os.environ)
    assert other.returncode == 1 and other.stderr.strip().splitlines()[-1].startswith(
        "gonuts-solve: error: the record is for Go Nuts!, 2 players, target 50, rulebook reading, the table ")


@pytest.mark.slow
def test_a_cc_that_names_no_program_is_refused_and_one_with_arguments_works(tmp_path):
    env = {**os.environ, "GONUTS_SOLVE_CACHE": str(tmp_path / "cache"), "CC": "/nonexistent/cc"}
    p = _run(["build", "--target", "6", "--speed", "1.5", "--out", str(tmp_path / "a.npz")], env)
    assert p.returncode == 1 and p.stderr.strip().splitlines() == [
        'gonuts-solve: error: environment: CC names "/nonexistent/cc", which is not a program on the PATH; set CC '
        'to a C compiler (gcc, clang) or unset it'], p.stderr
    assert not (tmp_path / "a.npz").exists()
    if shutil.which("ccache") is None:
        pytest.skip("ccache is not installed (.ci/run installs it)")
    env.update(CC="ccache gcc", CCACHE_DIR=str(tmp_path / "ccache"))
    p = _run(["build", "--target", "6", "--speed", "1.5", "--out", str(tmp_path / "b.npz")], env)
    assert p.returncode == 0 and "compiling" in p.stderr, p.stderr
    assert (tmp_path / "ccache").is_dir()


def _fake_cc(folder: Path, writes: str | None) -> Path:
    """A "compiler" that exits 0 and writes ``writes`` to its -o file (nothing when None)."""
    cc = folder / "fakecc"
    body = "" if writes is None else f"open(out, 'w').write({writes!r})"
    cc.write_text(f"#!{sys.executable}\nimport sys\nargs = sys.argv[1:]\nif '--version' in args:\n    print('fakecc 1')\n"
                  f"    sys.exit(0)\nout = args[args.index('-o') + 1]\n{body}\n")
    cc.chmod(0o755)
    return cc


@pytest.mark.parametrize("writes, said", [(None, "wrote no library"), ("", "wrote an empty file"),
                                          ("int main;\n", "wrote a file that is not a shared library")])
def test_a_cc_that_exits_0_without_a_library_is_refused_in_one_line(tmp_path, writes, said):
    env = {**os.environ, "GONUTS_SOLVE_CACHE": str(tmp_path / "cache"), "CC": str(_fake_cc(tmp_path, writes)),
           "GONUTS_SOLVE_KERNEL": "compile"}
    p = _run(["build", "--target", "6", "--speed", "1.5", "--out", str(tmp_path / "t.npz")], env)
    assert p.returncode == 1 and p.stderr.strip().splitlines()[-1] == (
        f"gonuts-solve: error: compiling the solver kernel with fakecc exited 0 but {said}: set CC to a C compiler "
        "(gcc, clang) or unset it"), p.stderr
    assert "Traceback" not in p.stderr and not (tmp_path / "t.npz").exists()
    assert not list((tmp_path / "cache").rglob("*.so"))                  # nothing kept as the kernel


@pytest.mark.slow
@pytest.mark.source
def test_a_wheel_never_carries_a_kernel_that_is_no_library(tmp_path):
    """setup.py with a $CC that writes text: the optional kernels are left out (the wheel is then
    py3-none-any and compiles at first use), and where a kernel is required the build fails."""
    cc = _fake_cc(tmp_path, "not a library\n")
    env = {**os.environ, "CC": str(cc), "LDSHARED": f"{cc} -shared"}
    env.pop("GONUTS_SOLVE_REQUIRE_KERNEL", None)
    src = tmp_path / "src"                  # a copy of the tracked files: no earlier build/ to reuse a kernel from
    for name in subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True).stdout.splitlines():
        if name.startswith(("setup.py", "pyproject.toml", "README.md", "solver/", "tables/", "cli.py")):
            (src / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, src / name)
    args = [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path / "dist"), str(src)]
    p = subprocess.run(args, env=env, capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stderr[-3000:]
    (wheel,) = (tmp_path / "dist").glob("*.whl")
    assert wheel.name.endswith("-py3-none-any.whl"), wheel.name
    assert not [n for n in __import__("zipfile").ZipFile(wheel).namelist() if "_kernels_" in n]
    wheel.unlink()
    p = subprocess.run(args, env={**env, "GONUTS_SOLVE_REQUIRE_KERNEL": "1"}, capture_output=True, text=True,
                       timeout=600)
    assert p.returncode != 0 and "exited 0 but wrote a file that is not a shared library" in p.stderr + p.stdout
    assert not list((tmp_path / "dist").glob("*.whl"))
