"""gonuts-solve command line: options -> one library call -> output.

The library (``solver``) never imports click and never exits; this layer maps
its exceptions (``GonutsError``) and click's usage errors to one line on
stderr and a non-zero exit code: 2 for usage, 1 for refused input or tables.
"""
from __future__ import annotations

import contextlib
import json
import os
import sys
import threading
import time

import click

from solver import __version__
from solver.errors import GonutsError, StateError, TableError

EXIT_REFUSED = 1
EXIT_USAGE = 2
EXIT_INTERNAL = 3


# -- shared option parsing ---------------------------------------------------------------------
#
# Exit codes: 2 when the command line cannot be read (an unknown command or option, a missing
# argument, a value that is not of its option's type or not one of its choices); 1 when it can be
# read but a value is refused (out of range, the wrong count, rules that make no game, an
# impossible state, an unreadable or mismatched table or record).

class Refused(click.ClickException):
    """A well-formed value that the rules or the command refuse: exit 1."""
    exit_code = EXIT_REFUSED

    def __init__(self, message, param_hint=None):
        super().__init__(f"Invalid value for {param_hint}: {message}" if param_hint else message)


class Bounded(click.ParamType):
    """A whole number (or with ``real``, any number) that must lie in [lo, hi]: not a number is a usage
    error (2), out of range is refused (1)."""

    def __init__(self, lo=None, hi=None, real=False):
        self.lo, self.hi, self.real = lo, hi, real
        self.name = "float" if real else "integer"

    def convert(self, value, param, ctx):
        value = (click.FLOAT if self.real else click.INT).convert(value, param, ctx)
        if (self.lo is not None and value < self.lo) or (self.hi is not None and value > self.hi):
            span = (f"from {self.lo} to {self.hi}" if self.hi is not None else f"at least {self.lo}") \
                if self.lo is not None else f"at most {self.hi}"
            raise Refused(f"{value} is not {span}", param_hint=f"'{param.opts[0]}'" if param else None)
        return value


def _ints(text, name, count=None):
    try:
        vals = [int(x) for x in str(text).replace(" ", "").split(",") if x != ""]
    except ValueError:
        raise click.BadParameter(f"expected comma-separated whole numbers, got {str(text)[:80]!r}",
                                 param_hint=name)
    if count is not None and len(vals) != count:
        raise Refused(f"expected {count} comma-separated whole numbers, got {len(vals)}", param_hint=name)
    if not vals:
        raise click.BadParameter("expected comma-separated whole numbers", param_hint=name)
    return vals


def rules_options(f):
    opts = [
        click.option("--game", type=click.Choice(["gonuts", "pig"]), default=None,
                     help="Game to solve. [default: gonuts]"),
        click.option("--players", type=Bounded(2, 4), default=None,
                     help="Number of players, 2 to 4. [default: 2, or the number of --scores]"),
        click.option("--target", type=Bounded(1), default=None,
                     help="Points needed to win. [default: 50]"),
        click.option("--rules", "preset_name", type=click.Choice(["rulebook", "summary"]), default=None,
                     help="Reading of the rules (see README). [default: rulebook]"),
        click.option("--faces", default=None, metavar="A,S,C",
                     help="Squirrel-die faces: acorn,squirrel,car counts. [default: 2,3,1]"),
        click.option("--dog", default=None, metavar="D,H",
                     help="Dog-die faces: dog,house counts. [default: 1,5]"),
        click.option("--speed", type=float, default=None,
                     help="Go Nuts! throws per dog-die tick. [default: 1]"),
    ]
    for opt in reversed(opts):
        f = opt(f)
    return f


def _asked(game, players, target, preset_name, faces, dog, speed):
    """The rules knobs the user gave explicitly, parsed."""
    asked = {}
    if game is not None:
        asked["game"] = game
    if players is not None:
        asked["players"] = players
    if target is not None:
        asked["target"] = target
    if preset_name is not None:
        asked["preset"] = preset_name
    if faces is not None:
        asked["faces"] = tuple(_ints(faces, "--faces", 3))
    if dog is not None:
        asked["dog"] = tuple(_ints(dog, "--dog", 2))
    if speed is not None:
        asked["speed"] = speed
    return asked


def _make_rules(asked, players=None):
    from solver.rules import Rules, preset
    game = asked.get("game", "gonuts")
    players = asked.get("players", players or 2)
    target = asked.get("target", 50)
    if game == "pig":
        extra = sorted(set(asked) - {"game", "players", "target"})
        if extra:
            raise click.UsageError(f"--{extra[0]} does not apply to Pig")
        return Rules(game="pig", players=players, target=target)
    knobs = {k: asked[k] for k in ("faces", "dog", "speed") if k in asked}
    return preset(asked.get("preset", "rulebook"), players=players, target=target, **knobs)


def _check_against(table, asked):
    """Refuse a table (or its rules) whose rules differ from any option the user gave."""
    r = getattr(table, "rules", table)
    have = {"game": r.game, "players": r.players, "target": r.target, "faces": r.faces, "dog": r.dog,
            "speed": r.speed, "preset": r.preset_name()}
    for key, want in asked.items():
        if have[key] != want:
            shown = ",".join(map(str, want)) if isinstance(want, tuple) else want
            raise TableError(f"the table was built for {r.describe()}, not --{key} {shown}")


class _Progress:
    """Progress on stderr for ``progress(done, total)`` reports: a bar on a terminal; elsewhere (a log, a
    pipe, CI) a line at least every 10 s while the work goes on, and one at its end if any was printed."""

    EVERY = float(os.environ.get("GONUTS_SOLVE_PROGRESS_EVERY") or 10.0)   # seconds; the tests shorten it

    def __init__(self, label):
        self.label, self.bar, self.state, self.printed = label, None, None, False
        self.t0 = time.monotonic()
        self.stop = threading.Event()
        self.ticker = None
        if not sys.stderr.isatty():
            self.ticker = threading.Thread(target=self._tick, daemon=True)
            self.ticker.start()

    def __call__(self, done, total):
        self.state = (done, total)
        if self.ticker is None:
            if self.bar is None:
                self.bar = click.progressbar(length=total, label=self.label, file=sys.stderr,
                                             show_eta=True, show_percent=True)
                self.bar.__enter__()
            self.bar.update(done - self.bar.pos)

    def _tick(self):
        while not self.stop.wait(self.EVERY):
            spent = time.monotonic() - self.t0
            if self.state is None or not self.state[1]:
                click.echo(f"{self.label}: working, {spent:.0f} s so far", err=True)
            else:
                done, total = self.state
                left = f", about {spent * (total - done) / done:.0f} s left" if done else ""
                click.echo(f"{self.label}: {100.0 * done / total:.0f}% after {spent:.0f} s{left}", err=True)
            self.printed = True

    def close(self):
        if self.ticker is not None:
            self.stop.set()
            self.ticker.join()
            if self.printed:
                click.echo(f"{self.label}: done in {time.monotonic() - self.t0:.0f} s", err=True)
        elif self.bar is not None:
            self.bar.__exit__(None, None, None)


@contextlib.contextmanager
def progress(label, enabled=True):
    """The progress reporter for one piece of long work (None when disabled), closed however it ends."""
    bar = _Progress(label) if enabled else None
    try:
        yield bar
    finally:
        if bar is not None:
            bar.close()


def _build_with_progress(rules, out, resume=False, force=False, quiet=False, checkpoint_every=10.0):
    from solver import build as builder
    from solver.resources import check_fits
    builder.check_destination(out, rules, resume)
    est = check_fits(rules, force=force)
    if not quiet:
        click.echo(f"building {rules.describe()}: {est.summary()}", err=True)

    def preparing():
        if not quiet:
            click.echo("compiling the solver's C kernel once (about a second; later runs reuse it)...", err=True)
    with progress("solving", not quiet) as bar:
        return builder.build(rules, out, progress=bar, resume=resume, checkpoint_every=checkpoint_every,
                             on_prepare=preparing)


def _load_for(asked, n_scores, read=None):
    """The table for the asked rules: shipped, cached, or built now (with progress) into the cache.

    ``read(path, rules)`` reads it (default: ``tables.load``); a cached table it refuses is built again.
    """
    from solver.locate import cache_dir, find_table, table_name
    if read is None:
        from solver import tables

        def read(path, rules):
            return tables.load(path, expect=rules)
    players = asked.get("players")
    if players is None and 2 <= n_scores <= 4:
        players = n_scores
    rules = _make_rules(asked, players)
    path = find_table(rules)
    if path is not None and path.parent == cache_dir():
        try:
            return read(path, rules)
        except TableError as exc:
            click.echo(f"the cached table is unusable ({exc}); building it again", err=True)
            path = None
    if path is None:
        folder = cache_dir()
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise TableError(f"cannot create the table cache {folder}: {exc.strerror}") from None
        click.echo(f"no table for {rules.describe()} yet; building it once into {folder}", err=True)
        path = folder / table_name(rules)
        _build_with_progress(rules, path)
    return read(path, rules)


# -- commands ------------------------------------------------------------------------------------

@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(__version__, prog_name="gonuts-solve")
def cli():
    """Optimal play for the dice game Go Nuts!: build win-probability tables and ask them.

    \b
    Quick start:
      gonuts-solve advise --scores 23,31 --turn 7 --dice 3
      gonuts-solve build --players 3 --rules summary --out gn3.npz
      gonuts-solve info gn3.npz
    """


@cli.command()
@rules_options
@click.option("--out", type=click.Path(dir_okay=False), default=None,
              help="Where to write the table. [default: ./<game>-<N>p-t<target>-<rules>.npz]")
@click.option("--resume", is_flag=True, help="Continue an interrupted build of the same --out from its checkpoint.")
@click.option("--checkpoint-every", type=Bounded(0, real=True), default=10.0, show_default=True,
              metavar="SECONDS", help="Save finished layers for --resume at most this often.")
@click.option("--force", is_flag=True, help="Build even when the estimate says it will not fit in memory.")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as one JSON object.")
def build(game, players, target, preset_name, faces, dog, speed, out, resume, checkpoint_every, force, as_json):
    """Solve a game for optimal play and write its table (.npz)."""
    from solver.locate import table_name
    rules = _make_rules(_asked(game, players, target, preset_name, faces, dog, speed))
    out = out or table_name(rules)
    rep = _build_with_progress(rules, out, resume=resume, force=force, quiet=as_json,
                               checkpoint_every=checkpoint_every)
    summary = {"path": str(rep.path), "rules": rules.to_dict(), "seconds": round(rep.seconds, 4),
               "iterations": rep.iterations, "residual": rep.residual, "converged": rep.converged,
               "first_player_win": rep.first_player_win}
    if as_json:
        click.echo(json.dumps(summary))
    else:
        flag = "converged" if rep.converged else "NOT CONVERGED"
        click.echo(f"{rep.path}: solved in {rep.seconds:.2f} s, {rep.iterations} iterations, residual "
                   f"{rep.residual:.1e} ({flag}); first player wins {rep.first_player_win:.4%}")


@cli.command()
@click.option("--scores", required=True, metavar="S0,S1,...",
              help="Banked scores in turn order, the player to move first.")
@click.option("--turn", type=int, default=0, show_default=True, help="Points collected so far this turn.")
@click.option("--dice", type=int, default=None,
              help="Live dice, 1 to 5. [default: 5, the start of a turn; Pig is played with one die: 1]")
@click.option("--table", "table_path", type=click.Path(dir_okay=False), default=None,
              help="Read this table instead of the shipped or cached one.")
@rules_options
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def advise(scores, turn, dice, table_path, game, players, target, preset_name, faces, dog, speed, as_json):
    """Roll or stop? The optimal action and the win probability of each.

    With no --turn and --dice, the question is the start of a turn (0 points,
    5 dice), where the first roll is forced: the answer is then your chance of
    winning from here.
    """
    from solver.advise import advise_path, check_dice
    score_list = _ints(scores, "--scores")
    asked = _asked(game, players, target, preset_name, faces, dog, speed)
    if dice is not None and not table_path:     # before any table is built for the question
        check_dice(1 if asked.get("game") == "pig" else 5, dice)

    def read(path, rules):                     # no --dice: all the game's dice (5, or Pig's one)
        return advise_path(path, score_list, turn, rules.substates if dice is None else dice, expect=rules)
    if table_path:
        from solver.contract import Archive, contract
        with Archive(table_path) as z:
            have = contract(z.meta(), str(table_path))[0]
        _check_against(have, asked)
        a, rules = read(table_path, have)
    else:
        if not 2 <= len(score_list) <= 4 and "players" not in asked:
            raise StateError(f"give 2 to 4 scores, one per player; got {len(score_list)}")
        a, rules = _load_for(asked, len(score_list), read)
    if as_json:
        out = a.to_dict()
        out["rules"] = rules.to_dict()
        click.echo(json.dumps(out))
        return
    click.echo(_advice_text(rules, a))


def _pct(x):
    return "   -   " if x is None else f"{100 * x:6.2f}%"


def _advice_text(rules, a):
    N = rules.players
    who = ", ".join(f"{s}" + (" (you)" if i == 0 else "") for i, s in enumerate(a.scores))
    dice = f"{a.dice} {'die' if a.dice == 1 else 'dice'} live" if rules.game == "gonuts" else ""
    head = f"{rules.describe()}\nscores {who}; {a.turn} turn points" + (f"; {dice}" if dice else "")
    if a.reason == "reaches_target":
        return (f"{head}\nSTOP: banking {a.turn} points brings you to {a.scores[0] + a.turn} "
                f"(target {rules.target}): you win.")
    if a.reason == "forced":
        line = f"ROLL: the first roll of a turn is forced. Your chance of winning from here: {_pct(a.win_if_roll).strip()}"
    else:
        line = (f"{a.action.upper()}: win {_pct(a.win_if_roll).strip()} if you roll, "
                f"{_pct(a.win_if_stop).strip()} if you stop")
    lines = [head, line]
    if N > 2:
        lines.append("every player's chance, you and then the players after you in turn order:")
        lines.append("          " + "".join(f"{'you' if k == 0 else '+' + str(k):>10}" for k in range(N)))
        for label, vec in (("if roll", a.all_if_roll), ("if stop", a.all_if_stop)):
            if vec is not None:
                lines.append(f"{label:>10}" + "".join(f"{_pct(x):>10}" for x in vec))
    return "\n".join(lines)


@cli.command()
@click.argument("path", type=click.Path(dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def info(path, as_json):
    """A table's rules, solver metadata and headline numbers (checks its integrity)."""
    from solver import tables
    t = tables.load(path)
    N = t.players
    start = [float(x) for x in t.arrays["start_win"][(0,) * N]]
    out = {"path": str(path), "describe": t.rules.describe(), "rules": t.rules.to_dict(),
           "schema": t.meta["schema"], "package_version": t.meta["package_version"],
           "solver": t.meta["solver"], "checksum": t.meta["checksum"], "start_win_at_zero": start,
           "arrays": t.meta["arrays"], "size_bytes": os.path.getsize(path)}
    if as_json:
        click.echo(json.dumps(out))
        return
    s = t.meta["solver"]
    click.echo(f"{path}: {t.rules.describe()}")
    click.echo(f"  rules      {json.dumps(t.rules.to_dict())}")
    click.echo(f"  solver     {s['method']}: residual {s['residual']:.1e} (tolerance {s['tolerance']:.0e}), "
               f"{s['iterations']} iterations, {'converged' if s['converged'] else 'NOT converged'}, "
               f"{s['seconds']:.2f} s")
    click.echo("  at 0-0     " + ", ".join(f"seat {k + 1}: {p:.4%}" for k, p in enumerate(start)))
    click.echo("  arrays     " + ", ".join(f"{k} {v['dtype']}{tuple(v['shape'])}" for k, v in t.meta["arrays"].items()))
    click.echo(f"  integrity  schema {t.meta['schema']}, {t.meta['checksum'][:23]}... verified")


@cli.command()
@click.argument("path", type=click.Path(dir_okay=False))
@click.option("--tol", type=float, default=None,
              help="Largest Bellman error accepted. [default: the table's tolerance, at least 1e-12]")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def verify(path, tol, as_json):
    """Recheck every state of a table by an independent Bellman operator.

    Exits 1 when the largest error exceeds the tolerance or any decision differs
    from the optimal one by more than a tie (1e-9).
    """
    from solver import tables
    from solver.verify import verify as verify_table
    t = tables.load(path)
    with progress("verifying", not as_json and t.players >= 3) as bar:
        rep = verify_table(t, tolerance=tol, progress=bar)
    if as_json:
        click.echo(json.dumps(rep.to_dict()))
    else:
        extra = ""
        if rep.action_error is not None:
            extra += f", roll_win/stop_win error {rep.action_error:.1e}"
        if rep.payout_error is not None:
            extra += f", payout error {rep.payout_error:.1e}"
        click.echo(f"{path}: {rep.states:,} states; largest Bellman error {rep.value_error:.1e}{extra}; "
                   f"{rep.disagreements} policy disagreements beyond ties ({rep.ties} ties); tolerance "
                   f"{rep.tolerance:.0e}: {'OK' if rep.ok else 'FAILED'}")
    if not rep.ok:
        raise TableError(f"{path} failed verification")


def _policy_game(asked, specs, table_path):
    """Rules and (lazily) the optimal table for a list of policies."""
    from solver import tables
    if table_path:
        table = tables.load(table_path)
        _check_against(table, asked)
        return table.rules, (lambda: table), table
    rules = _make_rules(asked, asked.get("players") or (len(specs) if 2 <= len(specs) <= 4 else 2))
    holder = {}

    def optimal():
        if "t" not in holder:
            holder["t"] = _load_for({**asked, "players": rules.players}, rules.players)
        return holder["t"]
    return rules, optimal, None


def _split_policies(text):
    specs = [p.strip() for p in text.split(",") if p.strip()]
    if not specs:
        raise Refused("give one policy per seat, comma-separated", param_hint="--policies")
    return specs


policies_option = click.option(
    "--policies", required=True, metavar="P1,P2,...",
    help="One policy per seat, in seat order (seat 1 moves first): optimal, best (the exact best response "
         "to the other seats), maxpoints, hold:K, hold:K/D, dice:K1-K2-K3-K4-K5, race:K1-K2-K3-K4-K5/P/E "
         "(keep pace, end race), a table .npz, or module:function / file.py:function.")


@cli.command()
@policies_option
@click.option("--both-orders", is_flag=True, help="Also average over which seat moves first.")
@click.option("--table", "table_path", type=click.Path(dir_okay=False), default=None,
              help="The optimal table to use for 'optimal' (and whose rules to play).")
@rules_options
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def evaluate(policies, both_orders, table_path, game, players, target, preset_name, faces, dog, speed, as_json):
    """Exact win probability of each seat when each follows its own policy (no sampling)."""
    from solver.strategy import evaluate_policies
    specs = _split_policies(policies)
    asked = _asked(game, players, target, preset_name, faces, dog, speed)
    rules, optimal, table = _policy_game(asked, specs, table_path)
    pols = _resolve_with_progress(specs, rules, optimal, table, as_json)
    report = _best_report(pols)
    with progress("evaluating", not as_json and rules.players >= 3) as bar:
        ev = evaluate_policies(rules, pols, table=table or _maybe(optimal, specs), progress=bar)
    win = ev.win_both_orders if both_orders else ev.win
    turns = ev.expected_turns_both_orders if both_orders else ev.expected_turns
    if as_json:
        out = {"policies": specs, "rules": rules.to_dict(), "win": [float(x) for x in ev.win],
               "expected_turns": ev.expected_turns}
        if both_orders:
            out["win_both_orders"] = [float(x) for x in ev.win_both_orders]
            out["expected_turns_both_orders"] = ev.expected_turns_both_orders
        if report is not None:
            out["best_response"] = report
        click.echo(json.dumps(out))
        return
    how = "averaged over who moves first" if both_orders else "seat 1 moves first"
    click.echo(f"{rules.describe()}; exact, {how}:")
    for i, (spec, w) in enumerate(zip(specs, win)):
        click.echo(f"  seat {i + 1}  {spec:<24} wins {100 * w:7.3f}%")
    click.echo(f"  expected game length: {turns:.2f} turns")
    if report is not None:
        click.echo("  " + _best_line(report))


def _resolve_with_progress(specs, rules, optimal, table, quiet):
    """Policies from names; ``best`` seats are solved exactly (with a progress bar from 3 players)."""
    from solver.strategy import resolve
    with progress("best response", not quiet and rules.players >= 3 and "best" in specs) as bar:
        return resolve(specs, rules, optimal, table=table, progress=bar)


def _best_report(pols):
    return next((p.report for p in pols if getattr(p, "report", None) is not None), None)


def _best_line(r):
    return (f"best response: exact, residual {r['residual']:.1e} (tolerance {r['tolerance']:.0e}), "
            f"{r['iterations']} iterations, {'converged' if r['converged'] else 'NOT converged'}, "
            f"{r['seconds']:.2f} s")


def _maybe(optimal, specs):
    return optimal() if "optimal" in specs else None


@cli.command()
@policies_option
@click.option("--games", type=Bounded(1, 100_000_000), default=100_000, show_default=True)
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of numpy's random generator.")
@click.option("--table", "table_path", type=click.Path(dir_okay=False), default=None,
              help="The optimal table to use for 'optimal' (and whose rules to play).")
@rules_options
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def simulate(policies, games, seed, table_path, game, players, target, preset_name, faces, dog, speed, as_json):
    """Play whole games literally, dice by dice and dog die by dog die; win rates with 95% intervals."""
    from solver.strategy import simulate_policies
    specs = _split_policies(policies)
    asked = _asked(game, players, target, preset_name, faces, dog, speed)
    rules, optimal, table = _policy_game(asked, specs, table_path)
    pols = _resolve_with_progress(specs, rules, optimal, table, as_json)
    report = _best_report(pols)
    with progress("playing", not as_json) as bar:
        rep = simulate_policies(rules, pols, games, seed, progress=bar)
    if as_json:
        out = {"policies": specs, "rules": rules.to_dict(), "games": games, "seed": seed,
               "win": [float(x) for x in rep.win], "stderr": [float(x) for x in rep.stderr],
               "mean_turns": rep.turns, "seconds": rep.seconds}
        if report is not None:
            out["best_response"] = report
        click.echo(json.dumps(out))
        return
    click.echo(f"{rules.describe()}; {games:,} games, seed {seed}, seat 1 moves first:")
    for i, (spec, w, se) in enumerate(zip(specs, rep.win, rep.stderr)):
        click.echo(f"  seat {i + 1}  {spec:<24} wins {100 * w:7.3f}%  "
                   f"(95% interval {100 * (w - 1.96 * se):.3f}% to {100 * (w + 1.96 * se):.3f}%)")
    click.echo(f"  mean game length {rep.turns:.2f} turns; {games / rep.seconds:,.0f} games/s")
    if report is not None:
        click.echo("  " + _best_line(report))


@cli.command("simple-rules")
@click.option("--table", "table_path", type=click.Path(dir_okay=False), default=None,
              help="The optimal table to play against (and whose rules to use).")
@rules_options
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def simple_rules_cmd(table_path, game, players, target, preset_name, faces, dog, speed, as_json):
    """The best simple rules a person can remember, and how much each gives up against optimal play.

    Every candidate is evaluated exactly against optimal opponents, averaged over
    the seats, many at once (solver/versus.py): seconds for 2 and 3 players,
    about 8 minutes and 6 GB of memory for 4 players at target 50.
    """
    from solver import tables
    from solver.strategy import simple_rules
    asked = _asked(game, players, target, preset_name, faces, dog, speed)
    if table_path:
        table = tables.load(table_path)
        _check_against(table, asked)
    else:
        table = _load_for(asked, asked.get("players", 2))
    with progress("exact evaluations", not as_json) as bar:
        rep = simple_rules(table.rules, table, progress=bar)
    rows = [("best hold:K", rep.hold), ("best hold:K/D", rep.hold_dice), ("best per-dice thresholds", rep.per_dice),
            ("maxpoints", rep.maxpoints)]
    if as_json:
        click.echo(json.dumps({"rules": table.rules.to_dict(), "fair_share": 1 / rep.players,
                               "evaluations": rep.evaluations,
                               **{key: {"policy": r.name, "win": r.win, "gives_up": r.gives_up}
                                  for key, r in zip(("hold", "hold_dice", "per_dice", "maxpoints"),
                                                    (rep.hold, rep.hold_dice, rep.per_dice, rep.maxpoints))},
                               "hold_curve": [[k, w] for k, w in rep.hold_curve]}))
        return
    click.echo(f"{table.rules.describe()}: one simple player against {rep.players - 1} optimal "
               f"player{'s' if rep.players > 2 else ''}, averaged over seats (fair share "
               f"{100 / rep.players:.2f}%):")
    for label, r in rows:
        click.echo(f"  {label:<26} {r.name:<24} wins {100 * r.win:6.2f}%, gives up {100 * r.gives_up:5.2f} "
                   "points of win probability")


@cli.command()
@click.option("--players", type=Bounded(2, 4), default=2, show_default=True, help="Number of players.")
@click.option("--rules", "preset_name", type=click.Choice(["rulebook", "summary"]), default="rulebook",
              show_default=True, help="Reading of the rules.")
@click.option("--target", type=Bounded(1), default=50, show_default=True, help="Points needed to win.")
@click.option("--head-starts", default=None, metavar="H2,...",
              help="Evaluate these head starts of seats 2..N instead of searching for the fairest.")
@click.option("--table", "table_path", type=click.Path(dir_okay=False), default=None,
              help="Read this table instead of the shipped or cached one.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def fair(players, preset_name, target, head_starts, table_path, as_json):
    """Fair head starts: the points each later seat starts with to even out the first player's advantage.

    Exact, from the table: every seat's win probability under optimal play, for every
    vector of integer head starts; the fairest has the smallest largest deviation
    from 1/N (ties: the smallest head starts).
    """
    from solver import tables
    from solver.fair import fair_start
    asked = {"players": players, "preset": preset_name, "target": target}
    if table_path:
        table = tables.load(table_path)
        _check_against(table, asked)
    else:
        table = _load_for(asked, players)
    heads = _ints(head_starts, "--head-starts") if head_starts is not None else None
    res = fair_start(table, heads)
    if as_json:
        click.echo(json.dumps({"rules": table.rules.to_dict(), **res.to_dict()}))
        return
    what = "given" if heads is not None else "fairest"
    click.echo(f"{table.rules.describe()}; exact, optimal play by everyone, seat 1 moves first:")
    click.echo(f"  {what} head starts: " + ", ".join(f"seat {k + 1}: {h}" for k, h in enumerate((0,) + res.head_starts)))
    click.echo("           " + "".join(f"{'seat ' + str(k + 1):>10}" for k in range(players)))
    click.echo("  from 0   " + "".join(f"{100 * p:9.2f}%" for p in res.before))
    click.echo("  with it  " + "".join(f"{100 * p:9.2f}%" for p in res.after))
    click.echo(f"  largest deviation from the fair {100 / players:.2f}%: {100 * res.deviation:.2f} points "
               f"(from {100 * max(abs(p - 1 / players) for p in res.before):.2f} without head starts)")


@cli.command()
@click.argument("kind", type=click.Choice(["boundary", "win", "payout"]))
@click.option("--out", type=click.Path(dir_okay=False), default=None,
              help="Image file (.png, .svg or .pdf). [default: gonuts-KIND.png]")
@click.option("--table", "table_path", type=click.Path(dir_okay=False), default=None,
              help="Plot this table instead of the shipped or cached one.")
@rules_options
def plot(kind, out, table_path, game, players, target, preset_name, faces, dog, speed):
    """Draw the stopping boundary, the win probability, or the Go Nuts! payouts."""
    from solver import plots, tables
    asked = _asked(game, players, target, preset_name, faces, dog, speed)
    out = out or f"gonuts-{kind}.png"
    plots._pyplot()
    if kind == "payout":
        rules = tables.load(table_path).rules if table_path else _make_rules(asked)
        plots.payout(rules, out)
    else:
        if table_path:
            table = tables.load(table_path)
            _check_against(table, asked)
        else:
            table = _load_for(asked, asked.get("players", 2))
        getattr(plots, kind)(table, out)
    click.echo(f"wrote {out}")


@cli.command()
@click.option("--out", type=click.Path(dir_okay=False), default="gonuts.html", show_default=True,
              help="Where to write the page.")
@click.option("--players", "players_text", default="2,3", show_default=True, metavar="2,3",
              help="Player counts to embed (2 and/or 3).")
@click.option("--rules", "rules_text", default="rulebook,summary", show_default=True, metavar="READINGS",
              help="Readings of the rules to embed (rulebook and/or summary).")
@click.option("--json", "as_json", is_flag=True, help="Print a summary as one JSON object.")
def web(out, players_text, rules_text, as_json):
    """Write the web page: one self-contained HTML file (advise, play, coach, review), offline.

    It embeds the target-50 tables it needs (built once and cached if not
    shipped) and makes no network request. Open it from disk, or copy it to a
    phone or any static host.
    """
    from solver import webpage
    players = webpage.parse_list(players_text, webpage.PLAYERS, "players")
    readings = webpage.parse_list(rules_text, webpage.READINGS, "rules")
    loaded = [_load_for({"players": n, "preset": r, "target": webpage.TARGET}, n) for n in players for r in readings]
    size = webpage.write(out, webpage.page(loaded))
    games = [f"{n}-{r}" for n in players for r in readings]
    if as_json:
        click.echo(json.dumps({"path": str(out), "bytes": size, "games": games}))
    else:
        click.echo(f"wrote {out}: {size / 1e6:.1f} MB, {', '.join(games)} (target {webpage.TARGET}); "
                   "open it in a browser, offline")


@cli.command()
@click.argument("record_path", metavar="GAME.json", type=click.Path(dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def review(record_path, as_json):
    """Review a game record from the web page: each of your decisions against the optimal one."""
    from solver.record import RecordError, replay, review as review_game
    try:
        with open(record_path, encoding="utf-8") as fh:
            record = json.load(fh)
    except FileNotFoundError:
        raise RecordError(f"no game record at {record_path}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise RecordError(f"cannot read {record_path}: {getattr(exc, 'strerror', None) or exc}") from None
    except json.JSONDecodeError as exc:
        raise RecordError(f"{record_path} is not JSON ({exc.msg}, line {exc.lineno})") from None
    rep = replay(record)
    table = _load_for({"players": rep.rules.players, "preset": rep.rules.preset_name(),
                       "target": rep.rules.target}, rep.rules.players)
    rv = review_game(rep, table)
    if as_json:
        click.echo(json.dumps(rv.to_dict()))
        return
    click.echo(_review_text(rv))


def _review_text(rv):
    r = rv.replay
    status = (f"seat {r.winner + 1} won" if r.winner != r.you else "you won") if r.winner is not None \
        else "game in progress"
    lines = [f"{r.rules.describe()}; you at seat {r.you + 1}; {status}, {' - '.join(map(str, r.scores))}",
             f"{'event':>5}  {'scores (yours first)':<22}{'turn':>5}{'dice':>5}  {'you':<5} {'optimal':<8}"
             f"{'win if roll':>12}{'if stop':>10}{'loss':>8}"]
    for d in rv.decisions:
        lines.append(f"{d.event:>5}  {'-'.join(map(str, d.scores)):<22}{d.turn:>5}{d.dice:>5}  {d.taken:<5} "
                     f"{d.optimal:<8}{_pct(d.win_if_roll):>12}{_pct(d.win_if_stop):>10}{d.loss_points:>8.2f}")
    lines.append(f"{len(rv.decisions)} decisions; total given up: {rv.total_loss_points:.2f} points of win "
                 "probability")
    worst = rv.costliest()
    if worst:
        lines.append("costliest: " + "; ".join(f"event {d.event} ({d.taken} at {'-'.join(map(str, d.scores))}, "
                                                f"{d.turn} points, {d.dice} dice: {d.loss_points:.2f})" for d in worst))
    return "\n".join(lines)


# -- entry point ---------------------------------------------------------------------------------

def _one_line(msg) -> str:
    return " ".join(str(msg).split())


def main(argv=None):
    try:
        rv = cli.main(args=argv, prog_name="gonuts-solve", standalone_mode=False)
    except click.exceptions.Abort:
        click.echo("gonuts-solve: interrupted", err=True)
        sys.exit(130)
    except KeyboardInterrupt:
        click.echo("gonuts-solve: interrupted", err=True)
        sys.exit(130)
    except click.ClickException as exc:
        click.echo(f"gonuts-solve: error: {_one_line(exc.format_message())}", err=True)
        sys.exit(EXIT_USAGE if isinstance(exc, click.UsageError) else exc.exit_code or EXIT_REFUSED)
    except GonutsError as exc:
        from solver.build import BuildInterrupted
        click.echo(f"gonuts-solve: {'' if isinstance(exc, BuildInterrupted) else 'error: '}{_one_line(exc)}",
                   err=True)
        sys.exit(130 if isinstance(exc, BuildInterrupted) else EXIT_REFUSED)
    except MemoryError:
        click.echo("gonuts-solve: error: out of memory", err=True)
        sys.exit(EXIT_REFUSED)
    except Exception as exc:  # never a traceback for a user; GONUTS_DEBUG=1 shows it
        if os.environ.get("GONUTS_DEBUG"):
            raise
        click.echo(f"gonuts-solve: internal error: {type(exc).__name__}: {_one_line(exc)} "
                   "(please report; GONUTS_DEBUG=1 shows the traceback)", err=True)
        sys.exit(EXIT_INTERNAL)
    sys.exit(rv if isinstance(rv, int) else 0)


if __name__ == "__main__":
    main()
