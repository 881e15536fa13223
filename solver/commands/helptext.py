"""Every command's help text, as data: ``--help`` says the same under ``python -OO`` (``PYTHONOPTIMIZE=2``),
which strips docstrings. cli.py gives each command its text from here. (``\\b`` keeps click from
rewrapping the paragraph after it.)"""

HELP = {
    "gonuts-solve": """\
Optimal play for the dice game Go Nuts!: build win-probability tables and ask them.

\b
Quick start:
  gonuts-solve advise --scores 23,31 --turn 7 --dice 3
  gonuts-solve build --players 3 --rules summary --out gn3.npz
  gonuts-solve info gn3.npz""",
    "build": """\
Solve a game for optimal play and write its table (.npz).""",
    "advise": """\
Roll or stop? The optimal action and the win probability of each.

With no --turn and --dice, the question is the start of a turn (0 points,
5 dice), where the first roll is forced: the answer is then your chance of
winning from here.""",
    "info": """\
A table's rules, solver metadata and headline numbers (checks its integrity).""",
    "verify": """\
Recheck every state of a table by an independent Bellman operator.

Exits 1 when the largest error exceeds the tolerance or any decision differs
from the optimal one by more than a tie (1e-9).""",
    "evaluate": """\
Exact win probability of each seat when each follows its own policy (no sampling).""",
    "simulate": """\
Play whole games literally, dice by dice and dog die by dog die; win rates with 95% intervals.""",
    "simple-rules": """\
The best simple rules a person can remember, and how much each gives up against optimal play.

Every candidate is evaluated exactly against optimal opponents, averaged over
the seats, many at once (solver/lab/versus.py): seconds for 2 and 3 players,
8 to 12 minutes and 6 GB of memory for 4 players at target 50.""",
    "fair": """\
Fair head starts: the points each later seat starts with to even out the first player's advantage.

Exact, from the table: every seat's win probability under optimal play, for every
vector of integer head starts; the fairest has the smallest largest deviation
from 1/N (ties: the smallest head starts).""",
    "plot": """\
Draw the stopping boundary, the win probability, or the Go Nuts! payouts.""",
    "web": """\
Write the web page, offline: one self-contained HTML file that makes no network request, or with
--site a static site that installs as an app. The defaults take seconds (4 players at target 50 ship
as page data); other tables are built once and cached (4 players: about 20 s each).""",
    "review": """\
Review a game record from the web page (or a table's history): each decision of a seat against the
optimal one, and how much of the seat's change in win probability the dice, its own decisions and the
others' made.""",
    "practice": """\
Roll or stop? Decisions drawn from seeded games of optimal play, half of them close calls (the two
actions within 2 points of win probability; within 5 under the summary reading, whose decisions are
clearer), never two from one turn: each asked (r or s), then right or wrong, its cost, both chances and
why; the score is the mean loss per decision. A draw that finds too few close calls says so, and clear
ones fill the rest. With --json: the decisions, with the keys of advise --json.""",
}
