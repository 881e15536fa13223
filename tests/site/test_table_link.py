"""Players' own phones: three Chromium browsers (a table phone and two guests), each with a fake camera, pair by
QR codes and play a whole 3-player game, in a network namespace whose only link is lo (tests/site/linked_game.py
plays it there). Checked: every entry reaches every connected phone within a second; a stale entry is refused
with a line on the guest's phone and nothing else changes; a reload, a phone lost and back, and the table
phone lost (a guest going on as the new table phone) lose nothing; every phone ends on the same record, and
that record is the game the command line reviews (`gonuts-solve review --json`): its scores, its winner and
each seat's loss as the page shows them. The namespace needs root (or unprivileged user namespaces): where it
cannot be made, the test is skipped, which CI (GONUTS_NO_SKIPS=1) turns into a failure."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser
pytest.importorskip("playwright", reason="the page's browser tests need playwright (pip install \".[test]\")")
sys.path.insert(0, str(Path(__file__).parent))
from test_kernels import _no_compiler  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent.parent
SHOTS = Path(os.environ.get("GONUTS_SCREENSHOTS", ROOT / "build" / "screenshots"))
GERMAN = json.loads((ROOT / "solver" / "site" / "web" / "messages" / "de.json").read_text(encoding="utf-8"))
DRIVER = Path(__file__).with_name("linked_game.py")
SYNC_S = 1.0
NOTICE_S = 15.0          # a phone that vanishes (no word said) counts as gone within this long


def namespace_command():
    """How to run a command with lo as the only network link: as root, `unshare -n`; else a user namespace
    mapped to root (`unshare -rn`), where the kernel allows it. None where neither works."""
    if not shutil.which("unshare") or not shutil.which("ip"):
        return None
    for how in (["unshare", "-n"], ["unshare", "-rn"]):
        probe = subprocess.run([*how, "sh", "-c", "ip link set lo up && ip -o link"], capture_output=True, text=True)
        names = [line.split(":")[1].strip() for line in probe.stdout.splitlines() if line.strip()]
        if probe.returncode == 0 and names == ["lo"]:
            return how
    return None


def play(tmp_path_factory, mode, players):
    """The driver's `mode` ("game" or "strangers") on a page of these players, in the namespace: its JSON."""
    how = namespace_command()
    if how is None:
        pytest.skip("no network namespace can be made here (unshare -n needs root, unshare -rn user namespaces)")
    folder = tmp_path_factory.mktemp(f"linked-{mode}")
    page = folder / "gonuts.html"
    env = {**os.environ, "GONUTS_SOLVE_CACHE": str(tmp_path_factory.mktemp("linked-cache"))}
    p = subprocess.run([sys.executable, "-m", "cli", "web", "--players", players, "--rules", "rulebook", "--out", str(page)],
                       cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stderr
    run = subprocess.run([*how, "sh", "-c", 'ip link set lo up && exec "$0" "$@"', sys.executable, str(DRIVER), mode,
                          page.as_uri(), str(folder / "phones")], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-4000:]
    return json.loads(run.stdout), folder


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    out, folder = play(tmp_path_factory, "game", "3")
    SHOTS.mkdir(parents=True, exist_ok=True)
    for shot in (folder / "phones" / "shots").glob("*.png"):
        shutil.copy(shot, SHOTS / shot.name)
    return out


def de(key, **params):
    """A line as Cy's phone (in German) says it: from the catalogue."""
    text = GERMAN[key]
    for k, v in params.items():
        text = text.replace("{" + k + "}", str(v))
    return text


def states(game):
    """Every phone's state at every check."""
    for check in game["checks"].values():
        for state in check.values():
            if isinstance(state, dict) and "turn" in state:
                yield state


def without_record(state):
    return {k: v for k, v in state.items() if k != "record"}


def test_the_driver_refuses_to_run_with_a_link_beyond_loopback(tmp_path):
    p = subprocess.run([sys.executable, str(DRIVER), "game", "file:///nowhere.html", str(tmp_path)], capture_output=True,
                       text=True, timeout=60)
    # here, outside the namespace, this machine has more than lo (else the refusal cannot be seen: say so)
    links = subprocess.run(["ip", "-o", "link"], capture_output=True, text=True).stdout.count("\n")
    if links <= 1:
        pytest.skip("this machine has no link but lo: the refusal cannot be provoked")
    assert p.returncode == 3 and "lo is the only network link" in json.loads(p.stdout)["refused"]


def test_both_guests_pair_through_the_camera_and_see_the_game(game):
    paired = game["checks"]["paired"]
    assert paired["Ben"]["joined"] == "Ben's phone: connected to the table phone."
    assert paired["Cy"]["joined"] == de("{name}'s phone: connected to the table phone.", name="Cy") and paired["Cy"]["lang"] == "de"
    assert paired["Ann"]["seats"].splitlines() == ["Ann: on this phone Show a code", "Ben: on their own phone New code",
                                                   "Cy: on their own phone New code"]
    assert paired["Ben"]["record"] == paired["Ann"]["record"] == paired["Cy"]["record"]
    # the answers carry the guest's own address (an IP: its camera was used) and fit a version-5 QR code
    assert all(code.startswith("GN1A~") and len(code.split("~")) == 5 and len(code) <= 106
               for code in game["codes"].values()), game["codes"]


def test_every_entry_reaches_every_phone_within_a_second(game):
    assert len(game["lags"]) >= 20
    assert max(game["lags"]) < SYNC_S, game["log"]
    assert game["errors"] == []


def test_a_stale_entry_is_refused_on_the_guests_phone_and_changes_nothing(game):
    stale = game["checks"]["stale"]
    assert stale["Ben"]["error"] == "Another entry came first: yours was not taken. The game is as shown."
    records = [s["record"] for s in stale.values()]
    assert records[0] == records[1] == records[2]
    assert records[0]["events"][-1] == {"seat": 1, "roll": [3, 1, 1]}       # the table phone's, not Ben's 1-1-3
    assert stale["Ann"]["error"] == stale["Cy"]["error"] == ""


def test_a_reload_or_a_lost_phone_keeps_the_guests_copy_until_it_scans_again(game):
    cy = game["checks"]["reloaded"]["Cy"]
    assert cy["joined"] == de("{name}'s phone: not connected to the table phone. Scan its code again to come back, or go on here.", name="Cy")
    assert cy["record"] == game["checks"]["reloaded"]["Ann"]["record"]
    assert "Cy: on this phone" in game["checks"]["reloaded"]["Ann"]["seats"]
    ben = game["checks"]["returned"]
    assert ben["joined"].startswith("Ben's phone: not connected")
    assert game["noticed_s"]["ben"] < NOTICE_S and game["noticed_s"]["ann"] < NOTICE_S


def test_a_used_code_is_never_shown_again_and_taken_again_is_refused_at_once(game):
    assert game["cy_code_after"] == [True, ""]          # connected again: the box closed, its code gone
    assert game["used"]["line"] == "That code was used already: on the player's phone, scan this code again for a new one."
    assert game["used"]["said_s"] < 2


def test_a_pairing_needs_no_name_resolved_when_the_guest_answers_with_its_address(game):
    """The table phone's code names an mDNS host nothing resolves: the guest's answer carries its own address (an
    IP, never a name), the connection is made from it alone, and the answer still fits a version-5 QR code."""
    no_name = game["no_name"]
    assert no_name["offer"].split("~")[4].startswith("00000000-0000-0000-0000-000000000007.local_")
    address = no_name["answer"].split("~")[4].rsplit("_", 1)[0]
    assert address.count(".") == 3 and not address.endswith(".local"), no_name["answer"]
    assert len(no_name["answer"].encode()) <= 106 and no_name["paired_s"] < 20


def test_review_every_player_works_on_a_guests_phone(game):
    assert game["guest_review"] == {"enabled": True, "seats": 3}


def test_a_guest_goes_on_as_the_table_phone_when_the_table_phone_is_lost(game):
    handed = game["checks"]["handed"]
    assert handed["ben"]["record"] == handed["lost"]["record"]          # nothing lost with the table phone
    assert handed["ben"]["joined"] is None
    over = game["checks"]["over"]
    assert over["Ben"]["record"] == over["Cy"]["record"] == game["record"]
    assert over["Ben"]["record"]["events"][:len(handed["lost"]["record"]["events"])] == handed["lost"]["record"]["events"]


def test_the_record_on_every_phone_is_the_game_the_command_line_reviews(game, tmp_path):
    record = game["record"]
    path = tmp_path / "linked.json"
    path.write_text(json.dumps(record))
    # as a family would review it afterwards: an empty cache, no compiler, this Python alone on the PATH
    p = subprocess.run([sys.executable, "-m", "cli", "review", str(path), "--all-seats", "--json"], cwd=ROOT,
                       env=_no_compiler(tmp_path), capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    seats = json.loads(p.stdout)["seats"]
    over = game["checks"]["over"]
    assert over["Ben"]["turn"] == "Ann reached 50 and won!" and seats[0]["winner"] == 0
    assert over["Cy"]["turn"] == "Ann " + de("reached {target} and won!", target=50)
    for name in ("Ben", "Cy"):
        assert over[name]["scores"] == seats[0]["scores"]
        assert game["losses"][name] == pytest.approx([s["total_loss_points"] for s in seats], abs=1e-6)
    # the decisions entered on the guests' own phones are in the review
    assert [len(s["decisions"]) for s in seats] == [1, 3, 3]


def test_play_again_reaches_every_phone_and_the_finished_game_is_kept(game):
    again = game["checks"]["again"]
    assert again["Ben"]["record"] == again["Cy"]["record"]
    assert again["Cy"]["started"] != game["record"]["started"] and again["Cy"]["events"] == 0
    assert again["cy_recent"] == game["record"]


def test_every_screen_of_the_pairing_fits_the_phone_and_axe_finds_nothing(game):
    """The table phone's code (390x844), each guest's code and joined line (Ben 390x844, Cy 320x568 in German)."""
    assert not [s for s in states(game) if s["wide"]]
    audits = game["audits"]
    assert set(audits["Ann"]) == {"code-for-Ben", "code-for-Cy"} and set(audits["Cy"]) == {"answer", "joined"}
    assert all(found == [] for phone in audits.values() for found in phone.values()), audits


@pytest.fixture(scope="module")
def strangers(tmp_path_factory):
    return play(tmp_path_factory, "strangers", "2,3")[0]


def test_whatever_a_stranger_guest_sends_the_game_changes_only_by_its_own_legal_entry(strangers):
    """A bare page with no code of ours, its codes made by the driver's own reading of the format (so an
    independent packer's description connects), joins as Ben and sends garbage, binary, a framed message over
    the limit, entries out of turn, for another seat, of another game, one the rules refuse, a stale one."""
    assert strangers["first"]["kind"] == "game" and strangers["first"]["name"] == "Ben"
    assert strangers["after_wrong"] == {"events": [], "stale": 3, "error": ""}
    assert strangers["after_illegal"] == {"events": [{"seat": 0, "banked": 3}], "error": "", "stale": 2}
    taken = strangers["taken"]
    assert taken["events"] == [{"seat": 0, "banked": 3}, {"seat": 1, "roll": [2, 2, 1]}]
    assert taken["hints"] == [True, False, True] and taken["last_heard"]["record"]["events"] == taken["events"]
    assert strangers["errors"] == []


def test_whatever_a_stranger_table_sends_the_guests_own_game_stays_until_a_whole_game_arrives(strangers):
    own = strangers["adopted"]["own"]
    for step in strangers["hostile_table"]:
        assert step["record"] == own and not step["joined"] and step["error"] == ""
    said = strangers["said"]
    assert said[0] == "The other phone sent something this page does not understand."
    assert "The table phone's game cannot be shown here: event 0: seat 1 is not the player to move (seat 0 is)" in said
    assert said[-1].startswith("The table phone's game cannot be shown here: it is a game to 1,000,000,000")
    adopted = strangers["adopted"]
    assert adopted["record"]["names"] == ["Ann", "Ben", "Cy"] and adopted["record"]["events"] == [{"seat": 0, "banked": 3}]
    assert adopted["recent"] == own                        # her own game, set aside: Resume takes it back
