"""Three phones at one table, each a Chromium of its own with a fake camera, paired by QR codes: run by
tests/site/test_table_link.py inside a network namespace whose only link is lo (``unshare -n``), and refusing
to run anywhere else, so that no packet can reach any address but loopback. No STUN or TURN server exists.

Ann keeps the table phone; Ben and Cy join on their own phones by scanning its codes through the camera (a Y4M
file the camera plays, written with Pillow from a screenshot of the code on the other screen) and showing
theirs back. Each enters their own turns; on the way: a stale entry (Ben's, made against the state before the
table phone's own entry), a guest's reload (Cy), a guest that leaves and comes back (Ben's tab closed and
opened again), and the table phone lost, Ben's phone going on as the new table phone; the game ends, Play
again reaches every phone. Prints one JSON object: every phone's state at each check, the lag of each entry
to every phone, and the finished game's record."""
from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import time
from pathlib import Path

from PIL import Image
from playwright.sync_api import sync_playwright

CHROMIUM = "/usr/bin/chromium"
# WebRTC between pages of one machine needs loopback candidates; the camera is allowed without asking and
# plays a file (the fake device reads it when a capture starts: each scan sees what the file holds then).
ARGS = ["--allow-loopback-in-peer-connection", "--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream"]
ROOT = Path(__file__).resolve().parent.parent.parent
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
SYNC_S = 1.0            # every phone shows an entry within this long
W, H = 640, 480


def links():
    """The network links this process sees, by name."""
    out = subprocess.run(["ip", "-o", "link"], capture_output=True, text=True, check=True).stdout
    return [line.split(":")[1].strip().split("@")[0] for line in out.splitlines() if line.strip()]


def camera_file(path: Path, png: bytes | None) -> None:
    """A Y4M for the fake camera: the code's screenshot on white, as a phone held over the other screen sees it
    (or a white frame when there is nothing to see). Written whole, then moved into place."""
    frame = Image.new("L", (W, H), 255)
    if png is not None:
        code = Image.open(io.BytesIO(png)).convert("L")
        side = H - 80
        frame.paste(code.resize((side, side), Image.NEAREST), ((W - side) // 2, 40))
    chroma = bytes([128]) * (W // 2 * H // 2)
    data = b"YUV4MPEG2 W%d H%d F10:1 Ip A1:1 C420jpeg\n" % (W, H) + (b"FRAME\n" + frame.tobytes() + chroma + chroma) * 3
    tmp = path.with_suffix(".tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)


class Phone:
    """One player's phone: a browser of its own (its own camera), its page, its storage."""

    def __init__(self, pw, name, url, folder: Path, size=(390, 844), lang="en"):
        self.pw, self.name, self.url, self.errors, self.size, self.lang = pw, name, url, [], size, lang
        self.camera, self.profile = folder / f"camera-{name}.y4m", folder / f"profile-{name}"
        self.shots, self.shot_no, self.audits = folder / "shots", 0, {}
        camera_file(self.camera, None)
        self.start()

    def start(self):
        """The browser, on this phone's own profile (its storage outlives the process, as a phone's does)."""
        self.ctx = self.pw.chromium.launch_persistent_context(
            str(self.profile), executable_path=CHROMIUM, args=ARGS + [f"--use-file-for-fake-video-capture={self.camera}"],
            viewport={"width": self.size[0], "height": self.size[1]}, has_touch=True, is_mobile=True, device_scale_factor=1)
        self.page = self.ctx.pages[0] if self.ctx.pages else self.ctx.new_page()
        self.page.on("pageerror", lambda e: self.errors.append(f"{self.name}: {e}"))
        self.page.on("console", lambda m: self.errors.append(f"{self.name}: {m.text}") if m.type == "error" else None)
        self.page.goto(self.url + ("" if self.lang == "en" else f"?lang={self.lang}") + "#table")
        self.page.wait_for_function("() => window.gonuts !== undefined")

    def kill(self):
        """The phone dies or walks out of range: its browser killed, nothing said to anyone."""
        subprocess.run(["pkill", "-KILL", "-f", f"--user-data-dir={self.profile}"], check=False)
        try:
            self.ctx.close()
        except Exception:         # its browser is gone already
            pass
        self.page = None

    def sees(self, other: Phone, selector: str) -> None:
        """Point this phone's camera at a code on another phone's screen."""
        camera_file(self.camera, other.page.locator(selector).screenshot())

    def look(self, what, audit=False):
        """A screenshot of this phone's screen as it is; with audit, axe-core's violations here (WCAG 2 A and AA,
        best practices), kept by step."""
        self.shots.mkdir(parents=True, exist_ok=True)
        self.shot_no += 1
        self.page.screenshot(path=str(self.shots / f"linked-{self.name}-{self.size[0]}x{self.size[1]}-{self.shot_no:02d}-{what}.png"))
        if audit:
            if not self.page.evaluate("typeof window.axe !== 'undefined'"):
                self.page.evaluate(AXE.read_text() + "\n;undefined")
            self.audits[what] = self.page.evaluate(
                "axe.run(document, {resultTypes: ['violations']}).then((r) => r.violations.map("
                "(v) => [v.id, v.nodes.length, v.nodes[0].target.join(' ')]))")

    def tap(self, selector):
        loc = self.page.locator(selector)
        loc.scroll_into_view_if_needed()
        loc.tap()
        time.sleep(0.4)          # a person's pause: a second tap on one spot is a double tap, which the page ignores

    def state(self):
        return self.page.evaluate("""() => {
          const r = window.gonuts.record('table'), text = (id) => document.getElementById(id).innerText.trim();
          const joined = document.getElementById('table-joined');
          return {events: r ? r.events.length : null, started: r ? r.started : null, record: r,
                  scores: [...document.querySelectorAll('#table-pad .score')].map((e) => Number(e.textContent)),
                  turn: text('table-turn').replace(/\\n/g, ' '), said: text('table-said'),
                  joined: joined.hidden ? null : text('table-joined-text'),
                  seats: document.getElementById('table-link').hidden ? null : text('table-link-seats'),
                  error: text('table-error'), lang: document.documentElement.lang,
                  wide: document.documentElement.scrollWidth > window.innerWidth};
        }""")


def roll_button(a, s, c):
    """The button of a roll on the grid of the live dice (in any language)."""
    return f'#table-rolls button[data-roll="{a}-{s}-{c}"]:visible'


class Table:
    def __init__(self, phones):
        self.phones, self.lags, self.log = phones, [], []

    def connected(self):
        return [p for p in self.phones.values() if p.page is not None]

    def synced(self, n, phones):
        """Wait until every phone given holds n entries; the time it took."""
        t0 = time.monotonic()
        for p in phones:
            p.page.wait_for_function("(n) => { const r = window.gonuts.record('table'); return r && r.events.length === n; }",
                                     arg=n, timeout=10000)
        return time.monotonic() - t0

    def enter(self, phone, what, others):
        """One entry on `phone` ("roll", "stop", ("dice", a, s, c) or ("bank", n)), then the time until every
        phone in `others` shows it."""
        n = phone.state()["events"]
        if what in ("roll", "stop"):
            phone.tap(f"#table-{what}")
        elif what[0] == "dice":
            phone.tap(roll_button(*what[1:]))
        else:
            phone.page.locator("#table-bank-n").fill(str(what[1]))
            phone.tap("#table-bank button[type=submit]")
        phone.page.wait_for_function("(n) => window.gonuts.record('table').events.length === n + 1", arg=n, timeout=10000)
        lag = self.synced(n + 1, others)
        self.lags.append(lag)
        self.log.append([phone.name, what if isinstance(what, str) else list(what), round(lag, 3)])
        return lag

    def turn(self, phone, entries, others):
        for e in entries:
            self.enter(phone, e, others)


def pair(table_phone: Phone, guest: Phone, seat: int, scan_table: bool = True, look: bool = False):
    """The table phone shows a code for a seat; the guest scans it, shows its own, which the table phone scans."""
    T, G = table_phone, guest
    if T.page.locator("#table-link").get_attribute("open") is None:
        T.page.locator("#table-link summary").click()
    T.tap(f"#table-link-seat-{seat}")
    T.page.wait_for_selector("#table-link-pair:not([hidden]) svg.qr")
    T.page.locator("#table-link-pair").scroll_into_view_if_needed()
    T.look(f"code-for-{G.name}", audit=look)
    G.sees(T, "#table-link-qr svg")
    if G.page.locator("#table-joined-rejoin").is_visible():
        G.tap("#table-joined-rejoin")
    else:
        if G.page.locator("#table-join").get_attribute("open") is None:
            G.page.locator("#table-join summary").click()
        G.tap("#join-scan")
    G.page.wait_for_selector("#join-answer:not([hidden]) svg.qr", timeout=15000)
    G.page.locator("#join-answer").scroll_into_view_if_needed()
    G.look("answer", audit=look)
    answer = G.page.locator("#join-code").inner_text()
    if scan_table:
        T.sees(G, "#join-qr svg")
        T.tap("#table-link-scan")
    else:                       # no camera on the table phone: the code typed or pasted
        T.page.locator("#table-link-answer").fill(answer)
        T.tap("#table-link-form button[type=submit]")
    G.page.wait_for_selector("#table-joined.linked:not([hidden])", timeout=20000)
    G.page.evaluate("window.scrollTo(0, 0)")
    G.look("joined", audit=look)
    return answer


def main(url: str, folder: str) -> int:
    if links() != ["lo"]:
        print(json.dumps({"refused": f"this must run where lo is the only network link, not {links()}"}))
        return 3
    folder_ = Path(folder)
    folder_.mkdir(parents=True, exist_ok=True)
    out = {"checks": {}, "codes": {}}
    with sync_playwright() as pw:
        # Cy's phone is the smallest, and speaks German
        ann, ben, cy = Phone(pw, "Ann", url, folder_), Phone(pw, "Ben", url, folder_), Phone(pw, "Cy", url, folder_, (320, 568), "de")
        phones = {"Ann": ann, "Ben": ben, "Cy": cy}
        t = Table(phones)
        # -- the table phone starts a 3-player game as ever
        P = ann.page
        P.select_option("#table-players", "3")
        for i, nm in enumerate(("Ann", "Ben", "Cy")):
            P.fill(f"#table-name-{i}", nm)
        P.locator("#table-setup button[type=submit]").click()
        P.wait_for_selector("#table-game:not([hidden])")
        # -- Ben and Cy join by QR, through the camera both ways
        out["codes"]["ben"] = pair(ann, ben, 1, look=True)
        out["codes"]["cy"] = pair(ann, cy, 2, look=True)
        out["checks"]["paired"] = {n: p.state() for n, p in phones.items()}
        everyone = [ann, ben, cy]
        # -- each enters their own turns
        t.turn(ann, [("dice", 2, 2, 1), "stop"], everyone)
        t.turn(ben, [("dice", 2, 2, 1), "roll", ("dice", 1, 2, 1), "stop"], everyone)
        t.turn(cy, [("dice", 1, 3, 1), "stop"], everyone)
        # -- a stale entry: Ben taps his roll while his phone is busy (the tap waits in its queue); meanwhile the
        # table phone enters Ben's roll itself, so his entry reaches it made against the state before
        t.turn(ann, [("bank", 4)], everyone)
        n = ann.state()["events"]
        box = ben.page.locator(roll_button(1, 1, 3)).bounding_box()
        ben.page.evaluate("() => { setTimeout(() => { const end = performance.now() + 2500; while (performance.now() < end) {} }, 50); }")
        time.sleep(0.3)
        ann.page.locator(roll_button(3, 1, 1)).evaluate("(b) => { setTimeout(() => b.click(), 600); }")
        ben.page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)     # returns once Ben's phone is free
        t.synced(n + 1, everyone)
        ben.page.wait_for_function("() => /came first/.test(document.getElementById('table-error').innerText)", timeout=10000)
        out["checks"]["stale"] = {nm: p.state() for nm, p in phones.items()}
        t.turn(ben, ["stop"], everyone)
        # -- Cy reloads: her copy stays, not connected until she scans again
        cy.page.reload()
        cy.page.wait_for_function("() => window.gonuts !== undefined")
        cy.page.wait_for_selector("#table-joined.kept:not([hidden])")
        ann.page.wait_for_selector("#table-link-seats li:nth-child(3)[data-on=false]", state="attached", timeout=15000)
        out["checks"]["reloaded"] = {nm: p.state() for nm, p in phones.items()}
        out["codes"]["cy-again"] = pair(ann, cy, 2)
        t.turn(cy, [("bank", 7)], everyone)
        # -- Ben walks out of range (his phone's browser killed: no word to anyone); the table phone notices,
        # enters his turn; he comes back, his copy as he left it, and scans again
        ben.kill()
        t0 = time.monotonic()
        ann.page.wait_for_selector("#table-link-seats li:nth-child(2)[data-on=false]", state="attached", timeout=60000)
        out["noticed_s"] = {"ben": time.monotonic() - t0}
        t.turn(ann, [("bank", 5)], [ann, cy])
        t.turn(ann, [("bank", 3)], [ann, cy])          # Ben's turn, entered at the table
        ben.start()
        out["checks"]["returned"] = ben.state()
        out["codes"]["ben-again"] = pair(ann, ben, 1, scan_table=False)
        t.synced(ann.state()["events"], everyone)
        t.turn(cy, [("dice", 2, 3, 0), "stop"], everyone)
        # -- the table phone is lost: Ben goes on as the table phone, Cy joins him
        before = ann.state()
        ann.kill()
        t0 = time.monotonic()
        for p in (ben, cy):
            p.page.wait_for_selector("#table-joined.kept:not([hidden])", timeout=30000)
        out["noticed_s"]["ann"] = time.monotonic() - t0
        ben.tap("#table-joined-keep")
        out["checks"]["handed"] = {"lost": before, "ben": ben.state()}
        out["codes"]["cy-to-ben"] = pair(ben, cy, 2)
        both = [ben, cy]
        t.turn(ben, [("bank", 30)], both)             # Ann's turn, entered on the new table phone
        t.turn(ben, [("bank", 20)], both)
        t.turn(cy, [("dice", 2, 2, 1), "roll", ("dice", 0, 0, 4)], both)      # all cars: Cy's turn ends
        t.turn(ben, [("bank", 30)], both)             # Ann reaches the target
        ben.page.locator("#table-over .seat-review").first.wait_for()
        cy.page.locator("#table-over .seat-review").first.wait_for()
        out["checks"]["over"] = {nm: p.state() for nm, p in (("Ben", ben), ("Cy", cy))}
        out["losses"] = {nm: [float(x) for x in p.page.locator("#table-over .seat-review").evaluate_all("(rows) => rows.map((r) => r.dataset.loss)")]
                         for nm, p in (("Ben", ben), ("Cy", cy))}
        for nm, p in (("Ben", ben), ("Cy", cy)):
            p.page.screenshot(path=str(folder_ / f"linked-over-{nm}.png"))
        finished = ben.state()["record"]
        # -- Play again, on the table phone, reaches Cy: her finished copy is set aside, never lost
        ben.tap("#table-again")
        cy.page.wait_for_function("(s) => window.gonuts.record('table').started !== s", arg=finished["started"], timeout=10000)
        out["checks"]["again"] = {nm: p.state() for nm, p in (("Ben", ben), ("Cy", cy))}
        out["checks"]["again"]["cy_recent"] = cy.page.evaluate("window.gonuts.record('recent')")
        out["record"] = finished
        out["lags"], out["log"] = t.lags, t.log
        out["errors"] = [e for p in phones.values() for e in p.errors]
        out["audits"] = {nm: p.audits for nm, p in phones.items()}
        for p in (ben, cy):
            p.ctx.close()
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
