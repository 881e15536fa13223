"""The plots (solver/lab/plots.py): each returns its matplotlib Figure, for a notebook, and writes a file only when
given one; the stopping threshold is indexed as the decisions are (``[..., n]``: n dice live)."""
from __future__ import annotations

import pytest

import solver
from solver.lab import plots

pytest.importorskip("matplotlib", reason="plots need matplotlib (pip install \".[plot]\")")


def test_each_plot_returns_its_figure_and_writes_only_when_asked(tmp_path):
    t = solver.table(players=2)
    for draw, args in ((plots.win, (t,)), (plots.boundary, (t,)), (plots.payout, (t.rules,))):
        fig = draw(*args)
        assert type(fig).__name__ == "Figure" and fig.axes
        out = tmp_path / f"{draw.__name__}.png"
        assert type(draw(*args, out)).__name__ == "Figure" and out.stat().st_size > 1000
    assert sorted(p.name for p in tmp_path.iterdir()) == ["boundary.png", "payout.png", "win.png"]


def test_the_stopping_threshold_is_indexed_as_the_decisions_are():
    roll = solver.table(players=2).arrays["roll"]
    thr = plots.stop_threshold(roll)
    assert thr.shape == roll.shape[:2] + (roll.shape[-1],) and (thr[..., 0] == 50).all()
    for s0, s1, n in [(23, 31, 3), (0, 0, 2), (40, 12, 1)]:
        t = int(thr[s0, s1, n])
        assert t == 50 or not roll[s0, s1, t, n]
        assert all(roll[s0, s1, u, n] for u in range(0, min(t, 50)))
