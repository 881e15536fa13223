"""From the command line's rule knobs to a game and its table: shipped, cached, or built now."""
from __future__ import annotations

from solver.commands.progress import progress, say
from solver.errors import GonutsError, TableError, UsageError
from solver.files import cache_dir
from solver.game.rules import Rules, preset
from solver.store.locate import find_table, table_name

KNOBS = ("game", "players", "target", "preset", "faces", "dog", "speed")


def invalid(name, message) -> str:
    return f"Invalid value for {name}: {message}" if name else message


def ints(text, name, count=None) -> list:
    """'1, 2,3' -> [1, 2, 3]; not numbers is a usage error, the wrong count a refusal."""
    try:
        vals = [int(x) for x in str(text).replace(" ", "").split(",") if x != ""]
    except ValueError:
        raise UsageError(invalid(name, f"expected comma-separated whole numbers, got {str(text)[:80]!r}")) from None
    if count is not None and len(vals) != count:
        raise GonutsError(invalid(name, f"expected {count} comma-separated whole numbers, got {len(vals)}"))
    if not vals:
        raise UsageError(invalid(name, "expected comma-separated whole numbers"))
    return vals


def asked(game=None, players=None, target=None, preset=None, faces=None, dog=None, speed=None) -> dict:
    """The rules knobs the user gave explicitly, parsed."""
    out = {k: v for k, v in (("game", game), ("players", players), ("target", target), ("preset", preset),
                             ("speed", speed)) if v is not None}
    if faces is not None:
        out["faces"] = tuple(ints(faces, "--faces", 3))
    if dog is not None:
        out["dog"] = tuple(ints(dog, "--dog", 2))
    return out


def make_rules(knobs: dict, players=None) -> Rules:
    game = knobs.get("game", "gonuts")
    players = knobs.get("players", players or 2)
    target = knobs.get("target", 50)
    if game == "pig":
        extra = sorted(set(knobs) - {"game", "players", "target"})
        if extra:
            raise UsageError(f"--{extra[0]} does not apply to Pig")
        return Rules(game="pig", players=players, target=target)
    return preset(knobs.get("preset", "rulebook"), players=players, target=target,
                  **{k: knobs[k] for k in ("faces", "dog", "speed") if k in knobs})


def check_against(table, knobs: dict) -> None:
    """Refuse a table (or its rules) whose rules differ from any option the user gave."""
    r = getattr(table, "rules", table)
    have = {"game": r.game, "players": r.players, "target": r.target, "faces": r.faces, "dog": r.dog,
            "speed": r.speed, "preset": r.preset_name()}
    for key, want in knobs.items():
        if have[key] != want:
            shown = ",".join(map(str, want)) if isinstance(want, tuple) else want
            raise TableError(f"the table was built for {r.describe()}, not --{key} {shown}")


def build_with_progress(rules, out, resume=False, force=False, quiet=False, checkpoint_every=None):
    from solver.engine.resources import check_fits  # deferred for start-up: see load_for
    from solver.store import build as builder  # deferred for start-up: see load_for
    builder.check_destination(out, rules, resume)
    est = check_fits(rules, force=force)
    if not quiet:
        say(f"building {rules.describe()}: {est.summary()}")

    def preparing():
        if not quiet:
            say("compiling the solver's C kernel once (about a second; later runs reuse it)...")
    with progress("solving", not quiet) as bar:
        return builder.build(rules, out, progress=bar, resume=resume, checkpoint_every=checkpoint_every,
                             on_prepare=preparing)


def load_for(knobs: dict, n_scores: int, read=None):
    """The table for the asked rules: shipped, cached, or built now (with progress) into the cache.

    ``read(path, rules)`` reads it (default: ``tables.load``); a cached table it refuses is built again.
    Light: ``advise`` answers from a shipped table through here without importing numpy, so the
    builder and the numpy reader are imported only when needed."""
    if read is None:
        from solver.store import tables  # deferred for start-up: advise passes its own numpy-free read

        def read(path, rules):
            return tables.load(path, expect=rules)
    players = knobs.get("players")
    if players is None and 2 <= n_scores <= 4:
        players = n_scores
    rules = make_rules(knobs, players)
    path = find_table(rules)
    if path is not None and path.parent == cache_dir():
        try:
            return read(path, rules)
        except TableError as exc:
            say(f"the cached table is unusable ({exc}); building it again")
            path = None
    if path is None:
        folder = cache_dir()
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise TableError(f"cannot create the table cache {folder}: {exc.strerror}") from None
        say(f"no table for {rules.describe()} yet; building it once into {folder}")
        path = folder / table_name(rules)
        build_with_progress(rules, path)
    return read(path, rules)


def table_for(knobs: dict, table_path=None, players=None):
    """The table a command reads: ``--table`` (checked against the knobs given), else ``load_for``."""
    if table_path:
        from solver.store import tables  # deferred for start-up: see load_for
        table = tables.load(table_path)
        check_against(table, knobs)
        return table
    return load_for(knobs, players if players is not None else knobs.get("players", 2))


def policy_game(knobs: dict, policies: str, table_path, quiet: bool):
    """(specs, rules, policies, table, best-response report) for ``--policies``: ``best`` seats solved."""
    from solver.lab.strategy import resolve  # deferred for start-up: see load_for
    specs = [p.strip() for p in policies.split(",") if p.strip()]
    if not specs:
        raise GonutsError(invalid("--policies", "give one policy per seat, comma-separated"))
    holder = {}
    if table_path:
        holder["t"] = table_for(knobs, table_path)
        rules = holder["t"].rules
    else:
        rules = make_rules(knobs, knobs.get("players") or (len(specs) if 2 <= len(specs) <= 4 else 2))

    def optimal():
        if "t" not in holder:
            holder["t"] = load_for({**knobs, "players": rules.players}, rules.players)
        return holder["t"]
    with progress("best response", not quiet and rules.players >= 3 and "best" in specs) as bar:
        pols = resolve(specs, rules, optimal, table=holder.get("t"), progress=bar)
    table = holder.get("t") or (optimal() if "optimal" in specs else None)
    return specs, rules, pols, table, next((p.report for p in pols if getattr(p, "report", None)), None)


def explain_for(table_path, rules, a) -> dict:
    """``advise --explain``: the explain object of the state just advised, from the same table."""
    from solver.play.explain import explain_path  # deferred for start-up: only --explain pays for it
    path = table_path or find_table(rules)
    return explain_path(path, a.scores, a.turn, a.dice, expect=rules)
