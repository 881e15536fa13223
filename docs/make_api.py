"""The API reference, docs/api.md, written from the front door's docstrings and signatures (one source: the
code). ``python docs/make_api.py`` writes it; tests/test_api.py checks that it is what the code says."""
from __future__ import annotations

import inspect
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

OUT = ROOT / "docs" / "api.md"


def _entries() -> list[tuple[str, object, list[str]]]:
    """(heading, object, members to document) in reading order: the front door, then what it gives back."""
    import solver
    from solver.engine.evaluate import EvalResult
    from solver.engine.solve import SolveResult
    from solver.lab import plots
    from solver.lab.policies import TablePolicy, Thresholds
    from solver.lab.strategy import SimReport
    from solver.play.advise import Advice
    return [
        ("solver.table", solver.table, []),
        ("solver.Table", solver.Table, ["advise", "win", "policy", "players", "target", "substates", "roll_at",
                                              "mix_at", "equilibrium"]),
        ("solver.advise", solver.advise, []),
        ("solver.solve", solver.solve, []),
        ("solver.evaluate", solver.evaluate, []),
        ("solver.simulate", solver.simulate, []),
        ("solver.Rules", solver.Rules, ["from_options", "describe", "reading_name", "to_dict"]),
        ("solver.Tables", solver.Tables, ["get", "find"]),
        ("solver.plots.boundary", plots.boundary, []),
        ("solver.plots.win", plots.win, []),
        ("solver.plots.payout", plots.payout, []),
        ("Advice", Advice, ["to_dict"]),
        ("TablePolicy (Table.policy)", TablePolicy, ["axes", "roll", "action", "roll_probability", "thresholds"]),
        ("Thresholds", Thresholds, ["monotone"]),
        ("EvalResult", EvalResult, ["win", "expected_turns", "win_when_starting", "turns_when_starting",
                                    "win_both_orders", "expected_turns_both_orders", "probabilities", "turns"]),
        ("SimReport", SimReport, []),
        ("SolveResult", SolveResult, ["equilibrium", "check"]),
    ]


def _signature(obj: object, name: str) -> str:
    try:
        return f"{name}{inspect.signature(obj)}"  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return name


def _doc(obj: object) -> str:
    """The docstring, its examples (a ``>>>`` line up to the next blank one) fenced as a Python session."""
    out, inside = [], False
    for line in (inspect.getdoc(obj) or "(no docstring)").splitlines():
        if line.startswith(">>>") and not inside:
            out.append("```pycon")
            inside = True
        elif inside and not line.strip():
            out.append("```")
            inside = False
        out.append(line)
    return "\n".join(out + (["```"] if inside else []))


def reference() -> str:
    out = ["# API reference", "",
           "Written by `python docs/make_api.py` from the docstrings (tests/test_api.py checks it is current). "
           "A guided tour: [library.md](library.md).", ""]
    for heading, obj, names in _entries():
        out += [f"## `{heading}`", ""]
        if inspect.isclass(obj):
            out += ["```text", _signature(obj, obj.__name__), "```", "", _doc(obj), ""]
            for name in names:
                member = inspect.getattr_static(obj, name)
                if isinstance(member, property):
                    out += [f"### `.{name}` (property)", "", _doc(member), ""]
                else:
                    func = getattr(obj, name)
                    out += [f"### `.{name}`", "", "```text", _signature(func, name), "```", "", _doc(func), ""]
        else:
            out += ["```text", _signature(obj, heading.rsplit(".", 1)[-1]), "```", "", _doc(obj), ""]
    return "\n".join(out).rstrip() + "\n"


if __name__ == "__main__":
    OUT.write_text(reference(), encoding="utf-8")
    print(f"wrote {OUT.relative_to(ROOT)}")
