"""The one way to a table: ``Tables(...).get(rules)`` finds the shipped or cached table, repairs a cached one
that does not read, builds a missing one (checked first: a destination that cannot be written, a game that will
not fit in memory, one that takes longer than ``max_build_seconds``) with progress, or, where it cannot be built
here or not quickly, answers from the page's values and says so. The command line, the adapters and the front
door (``solver.table``) all get their tables here.

    >>> from solver.game.rules import Rules
    >>> t = Tables().get(Rules.from_options(players=2, target=50))    # the shipped table: no build
    >>> t.path is not None and t.path.name                 # None for a table made in memory
    'gonuts-2p-t50-rulebook.npz'

Light: the command line's ``advise`` reads a shipped table through here with its own numpy-free reader, so
numpy, the builder and the kernel are imported only when a table is read by default or built.
"""
from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from solver.errors import CompileError, GonutsError, TableError
from solver.files import cache_dir, cache_folder
from solver.game.rules import Rules
from solver.store.locate import find_table, larger_tables, shipped_dir, table_name

if TYPE_CHECKING:                # annotations only: the engine (numpy) loads when a table is built
    from solver.engine.resources import Estimate
    from solver.engine.solve import Progress
    from solver.store.build import BuildReport


class TooLong(TableError):
    """A build refused because its estimate is longer than the limit asked (``max_build_seconds``)."""


def build_command(rules: Rules, out: Path | str) -> str:
    """The command line that builds the table of ``rules`` into ``out``.

    >>> build_command(Rules.from_options(players=3, target=30), "tables")
    'gonuts-solve build --players 3 --target 30 --rules rulebook --out tables'
    """
    knobs = f"--game pig --players {rules.players} --target {rules.target}" if rules.game == "pig" else \
        f"--players {rules.players} --target {rules.target} --rules {rules.reading_name()}"
    return f"gonuts-solve build {knobs} --out {out}"


def check_out(out: Path | str, rules: Rules, resume: bool = False) -> None:
    """Refuse a destination that cannot be written, that is no ``.npz`` file, or a resume with nothing to resume."""
    from solver.store import build as builder  # deferred for start-up
    builder.check_destination(out, rules, resume)
    if Path(out).suffix.lower() != ".npz":
        raise TableError(f"--out {out}: a table is a .npz file (numpy reads it by that name); name it "
                         f"{Path(out).stem}.npz")


def check_build(rules: Rules, out: Path | str, resume: bool = False, force: bool | None = False,
                max_seconds: float | None = None) -> Estimate:
    """The build's estimate (``resources.Estimate``), or a refusal before any work: a destination that cannot be
    written, a build that will not fit in memory (unless ``force``; ``force=None``: the caller has no --force to
    offer), or with ``max_seconds`` one estimated to take longer (``TooLong``, naming the command that builds it)."""
    from solver.engine import kernels  # deferred for start-up: see the module's docstring
    from solver.engine.resources import check_fits  # deferred for start-up
    check_out(out, rules, resume)
    kernels.needs_compile()           # no kernel and no compiler (or a $CC that names none): refused now
    est = check_fits(rules, force=force)
    if max_seconds is not None and est.seconds > max_seconds:
        raise TooLong(f"no table for {rules.describe()} yet; it takes {est.brief()} to build, so build it "
                      f"first: {build_command(rules, Path(out).parent)}{os.sep}")
    return est


@contextmanager
def _no_bar() -> Iterator[Progress | None]:
    yield None


class Tables:
    """Where tables come from: shipped with the package, cached, built now, or the page's values.

    ``cache``: the folder tables are built into (default: ``GONUTS_SOLVE_CACHE`` or the user's cache).
    ``max_build_seconds``: refuse (``TooLong``) a build estimated to take longer; None builds any.
    ``page_values``: ``page_values(rules, note)`` gives the page's values of a game (the front door and the
    command line pass ``solver.site.pagetable.page_table``), used where the exact table cannot be built here (no
    compiler) or not within the limit; None never uses them.
    ``progress(done, total)``: follows a build. ``note(line)``: hears what is done and why, one line each
    (building, repairing a cache, answering from the page's values); the default says nothing.
    ``bar()``: for the command line, a context giving the progress callback of one build (its progress bar).

    >>> tables = Tables(max_build_seconds=30)
    >>> tables.get(Rules.from_options(players=3, target=50, reading="summary")).players
    3
    """

    def __init__(self, cache: Path | str | None = None, max_build_seconds: float | None = None,
                 page_values: Callable[..., Any] | None = None, progress: Progress | None = None,
                 note: Callable[[str], None] | None = None,
                 bar: Callable[[], AbstractContextManager[Progress | None]] | None = None) -> None:
        if max_build_seconds is not None and (isinstance(max_build_seconds, bool) or
                                              not isinstance(max_build_seconds, (int, float)) or
                                              not max_build_seconds > 0 or max_build_seconds != max_build_seconds):
            raise GonutsError(f"max_build_seconds must be a number of seconds above 0 (or None: any build), not "
                              f"{max_build_seconds!r}")
        if progress is not None and not callable(progress):
            raise GonutsError(f"progress must be a function progress(done, total), not {progress!r}")
        self.cache = Path(cache) if cache is not None else None
        self.max_build_seconds = max_build_seconds
        self.page_values = page_values
        self.progress = progress
        self.note = note or (lambda line: None)
        self.bar = bar

    def folder(self) -> Path:
        """Where a missing table is built."""
        if self.cache is None:
            return cache_folder()
        self.cache.mkdir(parents=True, exist_ok=True)
        return self.cache

    def find(self, rules: Rules) -> Path | None:
        """The shipped or cached table of these rules, if there is one (nothing is built).

        >>> found = Tables().find(Rules.from_options(players=2))
        >>> found is not None and found.name
        'gonuts-2p-t50-rulebook.npz'
        """
        if self.cache is not None:
            path = self.cache / table_name(rules)
            if path.is_file():
                return path
        return find_table(rules)

    def get(self, rules: Rules, read: Callable[[Path, Rules], Any] | None = None,
            page: Callable[[Any], Any] | None = None) -> Any:
        """The table of ``rules`` (``tables.Table``, its ``path`` where it was read), built first if needed.

        ``read(path, rules)`` reads it (default: ``tables.load``, checked against the rules); a cached table it
        refuses is built again. Where the page's values answer instead, ``page(values)`` makes the answer
        (default: the values themselves, a ``pagetable.PageTable``)."""
        if read is None:
            from solver.store import tables  # deferred for start-up: see the module's docstring

            def read(path: Path, rules: Rules) -> Any:
                return tables.load(path, expect=rules)
        path = self.find(rules)
        if path is not None and path.parent in (cache_dir(), self.cache):
            try:
                return read(path, rules)
            except TableError as exc:
                self.note(f"the cached table is unusable ({exc}); making it again")
                path = None
        if path is None:
            folder = self.folder()
            path = folder / table_name(rules)
            if self.from_corner(rules, path) is not None:
                return read(path, rules)
            try:
                est = check_build(rules, path, force=None, max_seconds=self.max_build_seconds)
            except (TooLong, CompileError) as exc:
                values = self.from_page(rules, exc, folder)
                if values is None:
                    raise
                return page(values) if page is not None else values
            self.note(f"no table for {rules.describe()} yet; building it once into {folder}")
            self.build(rules, path, est)
        return read(path, rules)

    def build(self, rules: Rules, out: Path, est: Estimate | None = None, quiet: bool = False, resume: bool = False,
              force: bool | None = False, checkpoint_every: float | None = None) -> BuildReport:
        """Build one table into ``out`` (checked by ``check_build`` first unless its ``est`` is given), saying the
        estimate and following the build with ``progress`` (or the command line's ``bar``)."""
        from solver.store import build as builder  # deferred for start-up
        if not resume:
            check_out(out, rules)
            made = self.from_corner(rules, out, quiet=True)      # the build's own line says where it came from
            if made is not None:
                return made
        est = est or check_build(rules, out, resume, force)
        if not quiet:
            self.note(f"building {rules.describe()}: {est.summary()}")

        def preparing() -> None:
            if not quiet:
                self.note("compiling the solver's C kernel once (a few seconds; later runs reuse it)...")
        with (self.bar() if self.bar is not None and not quiet else _no_bar()) as bar:
            return builder.build(rules, out, progress=bar or self.progress, resume=resume,
                                 checkpoint_every=checkpoint_every, on_prepare=preparing)

    def larger(self, rules: Rules) -> list[tuple[int, Path]]:
        """The tables of the same game to a larger target (target, path), smallest first, from this cache, the
        user's and the shipped ones: a table to a smaller target is their corner (``store.corner``)."""
        folders = [f for f in (self.cache, cache_dir(), shipped_dir()) if f is not None]
        return larger_tables(rules, folders)

    def from_corner(self, rules: Rules, out: Path, quiet: bool = False) -> BuildReport | None:
        """Write the table of ``rules`` to ``out`` as the corner of a table of the same game to a larger target,
        with no solve, and say so; None where there is none (or none that passes its checks: then the line says
        why, and the game is solved)."""
        from solver.store import corner, tables  # deferred for start-up
        from solver.store.build import BuildReport  # deferred for start-up
        for target, path in self.larger(rules):
            t0 = time.perf_counter()
            try:
                big = tables.load(path, expect=corner.corner_rules(rules, target))
                meta = corner.write_corner(big, rules.target, out)
            except TableError as exc:
                self.note(f"the table to {target} ({path}) is unusable ({exc}); not reading the game to "
                          f"{rules.target} from it")
                continue
            if not quiet:
                self.note(f"{rules.describe()}: from the table to {target} ({path.name}), with no solve")
            s = meta["solver"]
            return BuildReport(out, meta, time.perf_counter() - t0, s["residual"], s["iterations"], s["converged"],
                               s["first_player_win"], meta["equilibrium"], corner_of=target)
        return None

    def from_page(self, rules: Rules, exc: Exception, folder: Path) -> Any:
        """The page's values of ``rules``, said in one line with why, or None (no page values asked or shipped)."""
        if self.page_values is None:
            return None
        cause = "no compiler here to build it" if isinstance(exc, CompileError) else "building it takes a while"

        def decoding() -> None:
            self.note(f"decoding the {rules.players}-player page data once into the cache (a few seconds; later "
                      "runs reuse it)")
        values = self.page_values(rules, decoding)
        if values is not None:
            self.note(f"no exact table for {rules.describe()} here ({cause}): answering from the page's values, "
                      f"within {values.precision:.1e} of it; for the exact numbers, first run "
                      f"{build_command(rules, folder)}{os.sep}")
        return values
