"""Building tables: rules -> exact payouts -> solve -> checked, atomically written ``.npz``.

Where tables live (shipped, cached) is ``locate``'s; ``library.Tables`` gets one, building it once.
"""
from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt

from solver import files
from solver.engine.kernels import needs_compile
from solver.engine.solve import TOLERANCE, NotConverged, Progress, prepare, solve
from solver.errors import GonutsError, TableError
from solver.files import StrPath
from solver.game.payout import nuts_payout_table
from solver.game.rules import Rules
from solver.game.turn import gonuts_turn, turn_model
from solver.store import tables
from solver.store.contract import PACKED_FROM_PLAYERS, Meta

_T = TypeVar("_T")


def check_destination(out: StrPath, rules: Rules | None = None, resume: bool = False) -> Path:
    """Refuse, before any work, a destination that cannot be written or a resume with nothing to resume."""
    path = files.check_destination(out, error=TableError)
    if resume:
        if rules is None:
            raise TableError("--resume needs the rules of the table it resumes")
        _Checkpoint(path, rules, 0).check()
    return path


@dataclass(frozen=True)
class BuildReport:
    """What a build wrote: the table's ``path`` and ``meta``, and the solver's numbers."""
    path: Path
    meta: Meta
    seconds: float
    residual: float
    iterations: int
    converged: bool
    first_player_win: float
    equilibrium: dict[str, Any]
    corner_of: int | None = None        # read off the table of the same game to this larger target (no solve)


def build(rules: Rules, out: StrPath, progress: Progress | None = None, resume: bool = False,
          tol: float | None = None, checkpoint_every: float | None = None,
          on_prepare: Callable[[], object] | None = None) -> BuildReport:
    """Solve the game the rules describe and write its table to ``out``.

    While it runs, the finished layers are saved beside ``out`` (a hidden
    ``.checkpoint.npz``) at most every ``checkpoint_every`` seconds, and at once
    on an interruption; ``resume=True`` continues from there. The checkpoint is
    removed when the table is written. After each save the solve runs at least
    ten times as long as the save took before the next, so saving never costs
    more than a tenth of the build.
    """

    path = check_destination(out, rules, resume)
    if on_prepare is not None and needs_compile():
        on_prepare()                    # compiling happens now, before the solve and its timing
    prepare()
    if rules.game == "gonuts":
        payouts = nuts_payout_table(rules)
        model = gonuts_turn(rules, payouts)
    else:
        payouts, model = None, turn_model(rules)
    checkpoint = _Checkpoint(path, rules, CHECKPOINT_EVERY if checkpoint_every is None else checkpoint_every)
    state = checkpoint.load() if resume else None
    try:
        result = solve(model, rules.players, rules.target, tol=tol or TOLERANCE, progress=progress,
                       resume=state, checkpoint=checkpoint.save)
        try:
            result.check(rules.describe())
        except NotConverged:
            checkpoint.clear()                  # nothing of a solve that did not converge is kept
            raise
        arrays: dict[str, Any] = {"start_win": result.start_win}
        if rules.players >= PACKED_FROM_PLAYERS:
            arrays["roll_bits"] = result.roll_bits
        else:
            arrays["roll"] = result.roll
        if result.roll_win is not None and rules.players == 2:
            arrays["roll_win"] = result.roll_win
            arrays["stop_win"] = result.stop_win
        if payouts is not None:
            arrays["nuts_payout"] = payouts
        if len(result.mixed):
            arrays.update(tables.mixed_arrays(result.mixed, rules.players, rules.target, model.substates))
        solver_meta = {
            "method": result.method, "tolerance": result.tolerance, "residual": result.residual,
            "iterations": result.iterations, "passes": result.passes, "converged": result.converged,
            "seconds": round(result.seconds, 4), "first_player_win": result.first_player_win,
        }
        meta = tables.save(path, rules, arrays, solver_meta, model.substates, result.equilibrium())
    except KeyboardInterrupt:
        try:
            saved = checkpoint.flush()
        except TableError as exc:
            raise BuildInterrupted(f"interrupted, and {exc}") from None
        raise BuildInterrupted(f"interrupted; {saved} layers of the solve are saved: run the same build "
                               "with --resume to continue" if saved else "interrupted before any layer "
                               "finished") from None
    checkpoint.clear()
    return BuildReport(path, meta, result.seconds, result.residual, result.iterations, result.converged,
                       result.first_player_win, result.equilibrium())


class BuildInterrupted(GonutsError):
    """A build stopped by the user; its finished layers are in the checkpoint."""


CHECKPOINT_EVERY = 60.0    # seconds between checkpoints: a build that ends sooner writes none
CHECKPOINT_SHARE = 0.1     # at most this share of a build's time goes into checkpoints


class _Checkpoint:
    """Per-layer progress of a long build, kept beside the output until the table is written."""

    def __init__(self, out: Path, rules: Rules, every: float) -> None:
        self.out = out
        self.path = out.parent / f".{out.name}.checkpoint.npz"
        self.rules = rules
        self.every = every
        self._last = time.monotonic()
        self._cost = 0.0
        self._latest: dict[str, Any] | None = None
        self._written: int | None = None

    def save(self, state: dict[str, Any]) -> None:
        """Called after every layer; writes when ``every`` seconds have passed since the last write, and
        the solve has run for at least the last write's time over ``CHECKPOINT_SHARE``."""
        self._latest = state
        if time.monotonic() - self._last >= max(self.every, self._cost / CHECKPOINT_SHARE):
            self._write(state)

    def flush(self) -> int:
        """Write the latest finished layer now. Returns the number of layers saved."""
        if self._latest is not None and self._written != self._latest["layers_done"]:
            self._write(self._latest)
        return self._written or 0

    def _write(self, state: dict[str, Any]) -> None:
        """Replace the checkpoint atomically (``files.atomic_write``: a full disk or a signal leaves the last
        one whole and no temporary file); a failure stops the build with one line."""
        t0 = time.monotonic()
        previous = f"; the checkpoint of layer {self._written} is kept (--resume)" if self._written else ""
        try:
            files.atomic_write(self.path, lambda fh: np.savez(
                fh, rules=np.array(json.dumps(self.rules.to_dict(), sort_keys=True)),
                **{k: np.asarray(v) for k, v in state.items() if v is not None}),  # type: ignore[arg-type]
                error=TableError)
        except TableError as exc:
            raise TableError(f"{str(exc).replace('cannot write', 'cannot save the checkpoint', 1)}{previous}") \
                from None
        self._last = time.monotonic()
        self._cost = self._last - t0
        self._written = int(state["layers_done"])

    def check(self) -> None:
        """Refuse a resume with no checkpoint, or with one for other rules (reads only its rules)."""
        self._read(lambda z: None)

    def load(self) -> dict[str, npt.NDArray[np.generic]]:
        """The saved arrays, for ``solve``'s ``resume`` (refused if the checkpoint is for other rules)."""
        return self._read(lambda z: {k: z[k] for k in z.files if k != "rules"})

    def _read(self, take: Callable[[Any], _T]) -> _T:
        if not self.path.is_file():
            raise TableError(f"nothing to resume: no checkpoint for {self.out}")
        try:
            with np.load(self.path, allow_pickle=False) as z:
                if json.loads(str(z["rules"][()])) != self.rules.to_dict():
                    raise TableError(f"{self.path}: checkpoint is for other rules; remove it or drop --resume")
                return take(z)
        except TableError:
            raise
        except Exception as exc:
            raise TableError(f"{self.path}: unreadable checkpoint ({type(exc).__name__}); remove it") from None

    def clear(self) -> None:
        """Remove the checkpoint (the table is written)."""
        if self.path.exists():
            self.path.unlink()
