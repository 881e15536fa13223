"""The plots (solver/lab/plots.py, ``solver.plots``), drawn as pandas' and seaborn's are: on the ``ax=`` or in the
``fig=`` given, else in a new pyplot figure that a notebook shows at once (a real kernel, no magic); a file only
when asked; the backend never switched; the command line leaves no figure open; the boundary is the policy's
thresholds."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

import solver
from solver.errors import GonutsError
from solver.lab import plots

pytest.importorskip("matplotlib", reason="plots need matplotlib (pip install \".[plot]\")")


@pytest.fixture(autouse=True)
def _closed():
    """Each test's pyplot figures closed after it."""
    import matplotlib.pyplot as plt
    yield
    plt.close("all")


def test_each_plot_returns_its_figure_and_writes_only_when_asked(tmp_path):
    t = solver.table(players=2)
    for draw, args in ((plots.win, (t,)), (plots.boundary, (t,)), (plots.payout, (t.rules,))):
        fig = draw(*args)
        assert type(fig).__name__ == "Figure" and fig.axes
        out = tmp_path / f"{draw.__name__}.png"
        assert type(draw(*args, out)).__name__ == "Figure" and out.stat().st_size > 1000
    assert sorted(p.name for p in tmp_path.iterdir()) == ["boundary.png", "payout.png", "win.png"]


def test_a_plot_is_pyplot_s_leaves_the_backend_alone_and_keeps_its_titles_inside():
    import matplotlib
    import matplotlib.pyplot as plt
    before = matplotlib.get_backend()
    fig = plots.boundary(solver.table(players=2))
    assert matplotlib.get_backend() == before                   # a notebook's inline display stays on
    assert plt.get_fignums() == [fig.number]                    # pyplot's, as a script's own figures are
    assert type(fig.get_layout_engine()).__name__ == "ConstrainedLayoutEngine"
    fig.canvas.draw()
    title = fig._suptitle.get_window_extent()                   # inside the figure, not above it
    assert 0 <= title.y0 and title.y1 <= fig.bbox.height
    assert solver.plots is plots


def test_each_plot_draws_where_it_is_told(tmp_path):
    import matplotlib.pyplot as plt
    t = solver.table(players=2)
    fig, (left, right) = plt.subplots(1, 2)
    assert plots.win(t, ax=right) is fig and right.images and not left.images
    assert plots.win(t, tmp_path / "w.png", ax=left) is fig and left.images and (tmp_path / "w.png").exists()
    panels = plt.figure()
    assert plots.boundary(t, fig=panels) is panels and len(panels.axes) == 6
    assert plots.payout(t.rules, fig=panels) is panels and len(panels.axes) == 9
    sub = plt.figure().subfigures(1, 2)[1]                       # an Axes of a subfigure: its top figure
    assert plots.win(t, ax=sub.subplots()) is sub.figure
    assert plt.get_fignums() == [fig.number, panels.number, sub.figure.number]   # no figure of its own
    with pytest.raises(GonutsError, match="use a .png"):
        plots.win(t, tmp_path / "w.jpg", ax=left)


def test_the_command_line_leaves_no_figure_open(tmp_path):
    import matplotlib.pyplot as plt

    from solver.commands.cli import cli
    for kind in ("win", "payout"):
        r = CliRunner().invoke(cli, ["plot", kind, "--out", str(tmp_path / f"{kind}.png")])
        assert r.exit_code == 0, r.output
    assert plt.get_fignums() == []


NOTEBOOK_CELL = "import solver\nsolver.plots.boundary(solver.table(players=2))"


def test_a_fresh_notebook_kernel_shows_the_plot_at_once_with_no_magic(tmp_path):
    """A cell ending in the plot, run by nbclient in a new IPython kernel (nothing before it: no
    ``%matplotlib inline``, no pyplot figure drawn first): its output holds the image."""
    nbformat = pytest.importorskip("nbformat", reason="nbclient and ipykernel are in the test extra")
    nbclient = pytest.importorskip("nbclient", reason="nbclient and ipykernel are in the test extra")
    pytest.importorskip("ipykernel", reason="nbclient and ipykernel are in the test extra")
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(NOTEBOOK_CELL)])
    nbclient.NotebookClient(nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}},
                            ).execute()
    outputs = nb.cells[0].outputs
    shown = [o for o in outputs if o.output_type in ("display_data", "execute_result")]
    assert any("image/png" in o.data for o in shown), json.dumps(outputs, default=str)[:2000]


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
