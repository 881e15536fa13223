"""The plots (solver/lab/plots.py, ``solver.plots``): each returns its matplotlib Figure, for a notebook, and writes
a file only when given one; no backend is switched and nothing is closed; the boundary is the policy's thresholds."""
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


def test_a_plot_leaves_the_backend_alone_keeps_its_figure_open_and_its_titles_inside():
    import matplotlib
    import matplotlib.pyplot as plt
    before = matplotlib.get_backend()
    fig = plots.boundary(solver.table(players=2))
    assert matplotlib.get_backend() == before                   # a notebook's inline display stays on
    assert plt.get_fignums() == []                              # not pyplot's: nothing global, nothing to close
    assert type(fig.get_layout_engine()).__name__ == "ConstrainedLayoutEngine"
    fig.canvas.draw()
    title = fig._suptitle.get_window_extent()                   # inside the figure, not above it
    assert 0 <= title.y0 and title.y1 <= fig.bbox.height
    assert solver.plots is plots


def test_the_boundary_is_the_policy_s_thresholds():
    """The thresholds the boundary draws are where the shipped decisions first stop, and the decisions that roll
    again above them are counted: 1,228 of the 12,500 (own score, next score, dice) cells (a researcher's count,
    with their own code)."""
    t = solver.table(players=2)
    roll, thr = t.arrays["roll"], t.policy.thresholds()
    assert thr.stop_at.shape == (50, 50, 5) and thr.axes == ("score 0", "score 1", "turn", "dice")
    for s0, s1, d in [(23, 31, 3), (0, 0, 2), (40, 12, 1), (10, 45, 5)]:
        k = int(thr.stop_at[s0, s1, d - 1])
        assert k <= 50 - s0
        assert all(roll[s0, s1, u, d] for u in range(0, k))
        assert k == 50 - s0 or not roll[s0, s1, k, d]
    cells = {(int(r[0]), int(r[1]), int(r[3])) for r in thr.rolls_above}
    assert len(cells) == 1228 and not thr.monotone
    for s0, s1, turn, d in thr.rolls_above[:50]:
        assert roll[s0, s1, turn, d] and turn > thr.stop_at[s0, s1, d - 1]
    assert thr.count_above.sum() == len(thr.rolls_above)
