"""gonuts-solve command line: options -> one library call -> output.

The library (``solver``) never imports click and never exits; this layer maps
its exceptions (``GonutsError``) and click's usage errors to one line on
stderr and a non-zero exit code: 2 for usage, 1 for refused input or tables.
What the commands do beyond parsing and printing is in ``solver.commands``.
"""
from __future__ import annotations

import sys
from collections.abc import Sequence

import click

from solver.commands import asked, streams, text
from solver.commands.asked import Knobs
from solver.commands.helptext import HELP
from solver.commands.options import (
    READINGS,
    Bounded,
    PathArg,
    emit,
    json_option,
    policies_option,
    rule_options,
    run,
    table_option,
)
from solver.commands.progress import progress
from solver.errors import StateError, TableError, UsageError
from solver.files import check_destination, destination
from solver.play import words
from solver.store.locate import table_name
from solver.version import __version__

# Each command imports what it needs when it runs (deferred for start-up: advise must not pay for numpy).


# -- commands ----------------------------------------------------------------------------------------

@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100},
             help=HELP["gonuts-solve"])
@click.version_option(__version__, prog_name="gonuts-solve")
def cli() -> None:
    """The command group; every command's help is in solver/commands/helptext.py."""


@cli.command(help=HELP["build"])
@rule_options
@click.option("--out", type=PathArg(), default=None,
              help="Where to write the table; a folder (or a path ending in /) gets the default name in it. "
                   "[default: ./<game>-<N>p-t<target>-<rules>.npz]")
@click.option("--resume", is_flag=True, help="Continue an interrupted build of the same --out from its checkpoint.")
@click.option("--checkpoint-every", type=Bounded(0, real=True), default=None, metavar="SECONDS",
              help="Save finished layers for --resume at most this often. [default: 60; after each save, "
                   "at least ten times as long as it took]")
@click.option("--force", is_flag=True, help="Build even when the estimate says it will not fit in memory.")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as one JSON object.")
def build(knobs: Knobs, out: str | None, resume: bool, checkpoint_every: float | None, force: bool,
          as_json: bool) -> None:
    rules = asked.make_rules(knobs)
    path = destination(out or ".", table_name(rules))
    rep = asked.build_with_progress(rules, path, resume=resume, force=force,
                                    quiet=as_json, checkpoint_every=checkpoint_every)
    emit(as_json, text.build_json(rules, rep), lambda: text.build(rep))


@cli.command(help=HELP["advise"])
@click.option("--scores", required=True, metavar="S0,S1,...",
              help="Banked scores in turn order, yours (the player to move) first.")
@click.option("--turn", type=Bounded(0), default=0, show_default=True, help="Points collected so far this turn.")
@click.option("--dice", type=Bounded(), default=None,
              help="Live dice, 1 to 5. [default: 5, the start of a turn; Pig is played with one die: 1]")
@click.option("--explain", is_flag=True, help="Also say why: where optimal play stops, the next roll's risks, "
              "and what this turn adds if you roll (with --json: an explain object).")
@table_option
@rule_options
@json_option
def advise(scores: str, turn: int, dice: int | None, explain: bool, table_path: str | None, knobs: Knobs,
           as_json: bool) -> None:
    from solver.game.states import check_state
    from solver.play.advise import check_explainable, table_rules
    score_list = tuple(asked.ints(scores, "--scores"))
    if table_path:
        rules = table_rules(table_path)
        asked.check_against(rules, knobs)
    else:
        if not 2 <= len(score_list) <= 4 and "players" not in knobs:
            raise StateError(f"give 2 to 4 scores, one per player; got {len(score_list)}")
        rules = asked.rules_for(knobs, len(score_list))
    dice = rules.substates if dice is None else dice      # no --dice: all the game's dice (5, or Pig's one)
    check_state(rules, score_list, turn, dice)             # the whole question, before any table is built
    if explain:
        check_explainable(rules)

    a, rules, extra = asked.advise_answer(knobs, table_path, rules, score_list, turn, dice, explain)
    why = extra.get("explain")
    emit(as_json, {**a.to_dict(), "rules": rules.to_dict(), **extra},
         lambda: text.advice(rules, a) + (("\n" + words.explain(rules, a, why)) if why else ""))


@cli.command(help=HELP["info"])
@click.argument("path", type=PathArg(dir_okay=False))
@json_option
def info(path: str, as_json: bool) -> None:
    from solver.store import tables
    t = tables.load(path)
    emit(as_json, text.info_json(path, t), lambda: text.info(path, t))


@cli.command(help=HELP["verify"])
@click.argument("path", type=PathArg(dir_okay=False))
@click.option("--tol", type=Bounded(real=True, above=0.0), default=None,
              help="Largest Bellman error accepted. [default: the table's tolerance, at least 1e-12]")
@json_option
def verify(path: str, tol: float | None, as_json: bool) -> None:
    from solver.store import tables
    from solver.store.verify import verify as verify_table
    t = tables.load(path)
    with progress("verifying", not as_json and t.players >= 3) as bar:
        rep = verify_table(t, tolerance=tol, progress=bar)
    emit(as_json, rep.to_dict(), lambda: text.verify(path, rep))
    if not rep.ok:
        raise TableError(f"{path} failed verification")


@cli.command(help=HELP["evaluate"])
@policies_option
@click.option("--both-orders", is_flag=True, help="Also average over which seat moves first.")
@table_option
@rule_options
@json_option
def evaluate(policies: str, both_orders: bool, table_path: str | None, knobs: Knobs, as_json: bool) -> None:
    from solver.lab.strategy import evaluate_policies
    specs, rules, pols, table, report = asked.policy_game(knobs, policies, table_path, as_json)
    with progress("evaluating", not as_json and rules.players >= 3) as bar:
        ev = evaluate_policies(rules, pols, table=table, progress=bar)
    emit(as_json, text.evaluate_json(rules, specs, ev, both_orders, report),
         lambda: text.evaluate(rules, specs, ev, both_orders, report))


@cli.command(help=HELP["simulate"])
@policies_option
@click.option("--games", "n_games", type=Bounded(1, 100_000_000), default=100_000, show_default=True,
              help="Games to play.")
@click.option("--seed", type=Bounded(0, 2 ** 32 - 1), default=0, show_default=True,
              help="Seed of numpy's random generator, 0 to 2^32 - 1 (as the page's seeds).")
@table_option
@rule_options
@json_option
def simulate(policies: str, n_games: int, seed: int, table_path: str | None, knobs: Knobs, as_json: bool) -> None:
    from solver.lab.strategy import simulate_policies
    specs, rules, pols, _, report = asked.policy_game(knobs, policies, table_path, as_json)
    with progress("playing", not as_json) as bar:
        rep = simulate_policies(rules, pols, n_games, seed, progress=bar)
    emit(as_json, text.simulate_json(rules, specs, n_games, seed, rep, report),
         lambda: text.simulate(rules, specs, n_games, seed, rep, report))


@cli.command("simple-rules", help=HELP["simple-rules"])
@table_option
@rule_options
@json_option
def simple_rules_cmd(table_path: str | None, knobs: Knobs, as_json: bool) -> None:
    from solver.lab.strategy import simple_rules
    table = asked.table_asked(knobs, table_path)
    with progress("exact evaluations", not as_json) as bar:
        rep = simple_rules(table.rules, table, progress=bar)
    emit(as_json, text.simple_rules_json(table.rules, rep), lambda: text.simple_rules(table.rules, rep))


@cli.command(help=HELP["fair"])
@click.option("--players", type=Bounded(2, 4), default=2, show_default=True, help="Number of players.")
@click.option("--rules", "reading", type=READINGS, default="rulebook", show_default=True, help="Reading of the rules.")
@click.option("--target", type=Bounded(1), default=50, show_default=True, help="Points needed to win.")
@click.option("--head-starts", default=None, metavar="H2,...",
              help="Evaluate these head starts of seats 2..N instead of searching for the fairest.")
@table_option
@json_option
def fair(players: int, reading: str, target: int, head_starts: str | None, table_path: str | None,
         as_json: bool) -> None:
    from solver.lab.fair import check_heads, fair_start
    heads = None if head_starts is None else check_heads(players, target, asked.ints(head_starts, "--head-starts"))
    table = asked.table_asked({"players": players, "reading": reading, "target": target}, table_path, players)
    res = fair_start(table, heads)
    emit(as_json, {"rules": table.rules.to_dict(), **res.to_dict()}, lambda: text.fair(table.rules, res, heads))


@cli.command(help=HELP["plot"])
@click.argument("kind", type=click.Choice(["boundary", "win", "payout"]))
@click.option("--out", type=PathArg(), default=None,
              help="Image file (.png, .svg or .pdf), or a folder for the default name. [default: gonuts-KIND.png]")
@table_option
@rule_options
def plot(kind: str, out: str | None, table_path: str | None, knobs: Knobs) -> None:
    from solver.lab import plots
    path = check_destination(destination(out or ".", f"gonuts-{kind}.png"))
    plots.require()                                         # matplotlib there, before any table is read or built
    if kind == "payout":
        fig = plots.payout(asked.table_asked(knobs, table_path).rules if table_path else asked.make_rules(knobs), path)
    else:
        fig = getattr(plots, kind)(asked.table_asked(knobs, table_path), path)
    plots.close(fig)
    streams.out(f"wrote {path}")


@cli.command(help=HELP["web"])
@click.option("--out", type=PathArg(), default=None,
              help="Where to write the page, or a folder for the default name. [default: gonuts.html]")
@click.option("--site", type=PathArg(file_okay=False), default=None,
              help="Write the installable app (a static site that works offline) into this folder instead.")
@click.option("--force", is_flag=True, help="With --site: write into a folder that holds other files.")
@click.option("--players", "players_text", default="2,3,4", show_default=True, help="Player counts to embed.")
@click.option("--rules", "rules_text", default="rulebook,summary", show_default=True, metavar="READINGS",
              help="Readings of the rules to embed (rulebook and/or summary).")
@click.option("--target", type=Bounded(1, 200), default=50, show_default=True, help="Points needed to win.")
@click.option("--json", "as_json", is_flag=True, help="Print a summary as one JSON object.")
def web(out: str | None, site: str | None, force: bool, players_text: str, rules_text: str, target: int,
        as_json: bool) -> None:
    from solver.site import website
    if out and site:
        raise UsageError("give --out (one file) or --site (a folder), not both")
    wanted = asked.games_asked(players_text, rules_text)
    page = None if site else str(destination(out or ".", "gonuts.html"))
    website.check_output(page, site, force)
    done = asked.write_web(wanted, target, page, site, force)
    emit(as_json, done, lambda: text.web(done, site))


@cli.command(help=HELP["review"])
@click.argument("record_path", metavar="GAME.json", type=PathArg(dir_okay=False))
@click.option("--seat", type=Bounded(1, 4), default=None, help="The seat to review, 1 to 4 (seat 1 moves first; "
              "the record's own \"you\" field counts from 0). [default: the record's \"you\"; every seat of a history]")
@click.option("--all-seats", is_flag=True, help="Review every seat (a table game holds them all).")
@click.option("--game", type=Bounded(1), default=None, help="Of a history file (the page's Table export): this game "
              "only, numbered from 1, newest first. [default: all]")
@click.option("--table", "table_path", type=PathArg(dir_okay=False), default=None,
              help="Review with this table (its rules must be the game's). [default: the shipped or cached table, "
                   "or the page's own values where no exact table is here]")
@json_option
def review(record_path: str, seat: int | None, all_seats: bool, game: int | None, table_path: str | None,
           as_json: bool) -> None:
    from solver.commands.reviews import review_file
    obj, words = review_file(record_path, seat, all_seats, game, table_path)
    emit(as_json, obj, lambda: words)


@cli.command(help=HELP["practice"])
@click.option("--seed", type=Bounded(0, 2 ** 32 - 1), default=None, help="Seed of the draw, 0 to 2^32 - 1 (the "
              "page's practice({seed}) draws the same). [default: a new one, printed]")
@click.option("--count", type=Bounded(1, 100), default=None, help="Decisions to draw. [default: 10]")
@click.option("--players", type=Bounded(2, 4), default=None, help="Number of players. [default: 2]")
@click.option("--rules", "reading", type=READINGS, default=None, help="Reading of the rules. [default: rulebook]")
@click.option("--daily", is_flag=True, help="The daily set: 10 decisions of 2 players, rulebook, the same for "
              "everyone on a date (the page's), with a line to share at the end.")
@click.option("--date", default=None, metavar="YYYY-MM-DD", help="With --daily: the set of this date. [default: today]")
@json_option
def practice(seed: int | None, count: int | None, players: int | None, reading: str | None, daily: bool,
             date: str | None, as_json: bool) -> None:
    from solver.commands import drills
    from solver.play.practice import draw
    seed, count, players, reading, day = drills.question(seed, count, players, reading, daily, date)
    if not as_json and sys.stdin is None:
        raise UsageError("practice asks its questions on standard input, which is closed; give it a terminal "
                         "or a file of answers, or use --json to print the decisions")
    values = drills.values_for(players, reading)
    picks = draw(values, seed, count)
    if as_json:
        emit(True, drills.as_json(values, picks, seed, day), None)
        return
    drills.quiz(values, picks, seed, day, drills.ask, streams.out)


# -- entry point ---------------------------------------------------------------------------------------

def main(argv: Sequence[str] | None = None) -> None:
    """The ``gonuts-solve`` command: run it on ``argv`` (default: the process's) and exit with its code."""
    sys.exit(run(cli, argv))


if __name__ == "__main__":
    main()
