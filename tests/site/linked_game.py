"""Three phones at one table, each a Chromium of its own with a fake camera, paired by QR codes: run by
tests/site/test_table_link.py inside a network namespace whose only link is lo (``unshare -n``), and refusing
to run anywhere else, so that no packet can reach any address but loopback. No STUN or TURN server exists.

Ann keeps the table phone; Ben and Cy join on their own phones by scanning its codes through the camera (a Y4M
file the camera plays, written with Pillow from a screenshot of the code on the other screen) and showing
theirs back. Each enters their own turns; on the way: a stale entry (Ben's, made against the state before the
table phone's own entry), a guest's reload (Cy), a guest that leaves and comes back (Ben's tab closed and
opened again), and the table phone lost, Ben's phone going on as the new table phone; the game ends, Play
again reaches every phone. Prints one JSON object: every phone's state at each check, the lag of each entry
to every phone, and the finished game's record.

    python tests/site/linked_game.py game|strangers PAGE_URL FOLDER

"strangers" plays a hostile phone instead: a bare page with no code of ours, first as a guest of the table
phone, then as the table phone of a guest with a game of her own."""
from __future__ import annotations

import base64
import io
import json
import os
import re
import subprocess
import sys
import time
import uuid
from pathlib import Path

from PIL import Image
from playwright.sync_api import TimeoutError as PlaywrightTimeout
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

    def start_game(self, *names):
        """A new table game on this phone, as ever: its players, Start."""
        self.page.select_option("#table-players", str(len(names)))
        for i, name in enumerate(names):
            self.page.fill(f"#table-name-{i}", name)
        self.page.locator("#table-setup button[type=submit]").click()
        self.page.wait_for_selector("#table-game:not([hidden])")

    def enter_bank(self, n):
        """A whole turn entered as points banked, on this phone."""
        count = self.page.evaluate("window.gonuts.record('table').events.length")
        self.page.locator("#table-bank-n").fill(str(n))
        self.tap("#table-bank button[type=submit]")
        self.page.wait_for_function("(n) => window.gonuts.record('table').events.length === n + 1", arg=count)

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
                                     arg=n, timeout=20000)
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
        phone.page.wait_for_function("(n) => window.gonuts.record('table').events.length === n + 1", arg=n, timeout=20000)
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
        ann.start_game("Ann", "Ben", "Cy")
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
        ben.page.evaluate("() => { setTimeout(() => { const end = performance.now() + 4000; while (performance.now() < end) {} }, 50); }")
        time.sleep(0.3)
        ann.page.locator(roll_button(3, 1, 1)).evaluate("(b) => { setTimeout(() => b.click(), 900); }")
        ben.page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)     # returns once Ben's phone is free
        t.synced(n + 1, everyone)
        ben.page.wait_for_function("() => /came first/.test(document.getElementById('table-error').innerText)", timeout=20000)
        out["checks"]["stale"] = {nm: p.state() for nm, p in phones.items()}
        t.turn(ben, ["stop"], everyone)
        # -- Cy reloads: her copy stays, not connected until she scans again
        cy.page.reload()
        cy.page.wait_for_function("() => window.gonuts !== undefined")
        cy.page.wait_for_selector("#table-joined.kept:not([hidden])")
        ann.page.wait_for_selector("#table-link-seats li:nth-child(3)[data-on=false]", state="attached", timeout=15000)
        out["checks"]["reloaded"] = {nm: p.state() for nm, p in phones.items()}
        out["codes"]["cy-again"] = pair(ann, cy, 2)
        # -- Cy's code is used: her phone shows it no more, and the table phone that is given it again says so
        out["cy_code_after"] = cy.page.evaluate(
            "() => [document.getElementById('join-answer').hidden, document.getElementById('join-code').textContent]")
        ann.tap("#table-link-seat-2")
        ann.page.wait_for_selector("#table-link-pair:not([hidden]) svg.qr")
        ann.page.locator("#table-link-answer").fill(out["codes"]["cy"])
        t0 = time.monotonic()
        ann.tap("#table-link-form button[type=submit]")
        ann.page.wait_for_function("() => document.getElementById('table-link-error').innerText.trim() !== ''",
                                   timeout=20000)
        out["used"] = {"said_s": time.monotonic() - t0,
                       "line": ann.page.locator("#table-link-error").inner_text().strip()}
        # -- the table phone's code names an mDNS host nothing resolves (as where multicast is filtered): Cy, who
        # has used her camera, answers with her own address, and that alone carries the connection
        offer = ann.page.locator("#table-link-code").inner_text().strip().split("~")
        port = offer[4].rsplit("_", 1)[1] if len(offer) > 4 else "9"
        nowhere = "~".join(offer[:4] + [f"{uuid.UUID(int=7)}.local_{port}"])
        if cy.page.locator("#table-join").get_attribute("open") is None:
            cy.page.locator("#table-join summary").click()
        cy.page.locator("#join-paste").fill(nowhere)
        cy.tap("#join-form button[type=submit]")
        cy.page.wait_for_selector("#join-answer:not([hidden]) svg.qr", timeout=15000)
        answer = cy.page.locator("#join-code").inner_text().strip()
        ann.page.locator("#table-link-answer").fill(answer)
        t0 = time.monotonic()
        ann.tap("#table-link-form button[type=submit]")
        cy.page.wait_for_selector("#table-joined.linked:not([hidden])", timeout=30000)
        out["no_name"] = {"offer": nowhere, "answer": answer, "paired_s": time.monotonic() - t0}
        t.synced(ann.state()["events"], everyone)
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
        # -- Review every player, on the guest's phone as on the table phone's
        out["guest_review"] = {"enabled": cy.page.locator("#table-to-review").is_enabled()}
        cy.tap("#table-to-review")
        cy.page.wait_for_selector("#rev-total", timeout=20000)
        out["guest_review"]["seats"] = cy.page.locator("#rev-seat option").count()
        cy.tap("#tab-table")
        finished = ben.state()["record"]
        # -- Play again, on the table phone, reaches Cy: her finished copy is set aside, never lost
        ben.tap("#table-again")
        cy.page.wait_for_function("(s) => window.gonuts.record('table').started !== s", arg=finished["started"], timeout=20000)
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


# -- a stranger: a bare page with no code of ours, its codes packed by this file's own reading of the format
# (docs/page.md), independently of page/sdp.js: that a code made here connects to the page and back is the
# evidence that a rebuilt description connects

STRANGER_JS = """() => {
  const pc = new RTCPeerConnection({iceServers: []}), ch = pc.createDataChannel('gonuts', {negotiated: true, id: 0});
  window.s = {pc, ch, got: [], part: ''};
  ch.onmessage = (e) => {                       // the page's frames: "+" a piece, "=" the last one
    if (typeof e.data !== 'string') { window.s.got.push('(binary)'); return; }
    if (e.data[0] === '+') { window.s.part += e.data.slice(1); return; }
    window.s.got.push(window.s.part + e.data.slice(1)); window.s.part = '';
  };
  window.gathered = () => new Promise((done) => { if (pc.iceGatheringState === 'complete') done();
    pc.onicegatheringstatechange = () => pc.iceGatheringState === 'complete' && done(); });
}"""


def stranger_code(kind: str, sdp: str) -> str:
    """A code ("O" offer, "A" answer) for a browser's description, as the format says."""
    find = lambda name: re.search(rf"^a={name}:(\S+)", sdp, re.M).group(1)       # noqa: E731
    fingerprint = re.search(r"^a=fingerprint:sha-256 (\S+)", sdp, re.M).group(1)
    fp = base64.urlsafe_b64encode(bytes.fromhex(fingerprint.replace(":", ""))).rstrip(b"=").decode()
    hosts = re.findall(r"^a=candidate:\S+ 1 udp \d+ (\S+) (\d+) typ host", sdp, re.M | re.I)
    return "~".join([f"GN1{kind}", find("ice-ufrag"), find("ice-pwd"), fp, *(f"{a}_{p}" for a, p in hosts[:1])])


def stranger_sdp(code: str) -> str:
    """The description a code stands for."""
    head, ufrag, pwd, fp, *hosts = code.split("~")
    raw = base64.urlsafe_b64decode(fp + "=")
    lines = ["v=0", "o=- 1 1 IN IP4 127.0.0.1", "s=-", "t=0 0", "a=group:BUNDLE 0",
             "m=application 9 UDP/DTLS/SCTP webrtc-datachannel", "c=IN IP4 0.0.0.0",
             *(f"a=candidate:{i} 1 udp 2122260223 {h.rsplit('_', 1)[0]} {h.rsplit('_', 1)[1]} typ host" for i, h in enumerate(hosts)),
             f"a=ice-ufrag:{ufrag}", f"a=ice-pwd:{pwd}", "a=fingerprint:sha-256 " + ":".join(f"{b:02X}" for b in raw),
             "a=setup:" + {"O": "actpass", "A": "active", "P": "passive"}[head[3]], "a=mid:0", "a=sctp-port:5000"]
    return "\r\n".join(lines) + "\r\n"


class Stranger:
    """Another phone that says what it likes: a blank page, its own browser, no code of ours."""

    def __init__(self, pw, folder: Path):
        blank = folder / "blank.html"
        blank.write_text("<!doctype html><title>stranger</title>")
        # with the camera allowed, as the phones: Chromium then offers its addresses, not mDNS names (which
        # nothing resolves in the namespace)
        self.browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        self.page = self.browser.new_page()
        self.page.goto(blank.as_uri())
        self.page.evaluate(STRANGER_JS)

    def answer(self, offer_code: str) -> str:
        sdp = self.page.evaluate("""async (sdp) => { await s.pc.setRemoteDescription({type: 'offer', sdp});
            await s.pc.setLocalDescription(await s.pc.createAnswer()); return s.pc.localDescription.sdp; }""", stranger_sdp(offer_code))
        return stranger_code("A", sdp)

    def offer(self) -> str:
        sdp = self.page.evaluate("async () => { await s.pc.setLocalDescription(await s.pc.createOffer()); await gathered(); return s.pc.localDescription.sdp; }")
        return stranger_code("O", sdp)

    def accept(self, answer_code: str) -> None:
        self.page.evaluate("(sdp) => s.pc.setRemoteDescription({type: 'answer', sdp})", stranger_sdp(answer_code))

    def opened(self):
        self.page.wait_for_function("() => s.ch.readyState === 'open'", timeout=20000)

    def send(self, message) -> None:
        """A JSON value, in the page's frames (16,384 characters each); a str is sent as it is (unframed), bytes
        as a binary message, ("oversize", n) as a framed message of n characters."""
        if isinstance(message, bytes):
            self.page.evaluate("(n) => s.ch.send(new Uint8Array(n))", len(message))
        elif isinstance(message, tuple):
            self.page.evaluate("(n) => { for (let i = 0; i < n; i += 16384) s.ch.send('+' + 'x'.repeat(16384)); s.ch.send('={}'); }",
                               message[1])
        elif isinstance(message, str):
            self.page.evaluate("(t) => s.ch.send(t)", message)
        else:
            text = json.dumps(message)
            pieces = [text[i:i + 16384] for i in range(0, max(len(text), 1), 16384)]
            self.page.evaluate("(fs) => { for (const f of fs) s.ch.send(f); }",
                               [("+" if k < len(pieces) - 1 else "=") + p for k, p in enumerate(pieces)])

    def heard(self, n: int) -> list:
        self.page.wait_for_function("(n) => s.got.length >= n", arg=n, timeout=20000)
        return [m if m == "(binary)" else json.loads(m) for m in self.page.evaluate("s.got")]


# unframed text, binary, a framed message over the limit (4 Mi characters), then framed messages that are not
# what the other side sends
GARBAGE = ["", "not json", '{"kind": "stale"}', b"\x00" * 16, ("oversize", 4 * 2 ** 20 + 1), "=" + "{" * 40_000,
           "=[]", "=null", '={"kind": "__proto__"}', {"kind": "entry"}, {"kind": "game", "name": "Ben", "record": {}}]


def strangers(url: str, folder: str) -> int:
    """A stranger as a guest of the table phone, then as the table phone of a guest: whatever it sends, the
    table phone's game changes only by a legal entry of the stranger's own seat on its own turn, and the guest's
    own game is never lost."""
    if links() != ["lo"]:
        print(json.dumps({"refused": f"this must run where lo is the only network link, not {links()}"}))
        return 3
    folder_ = Path(folder)
    folder_.mkdir(parents=True, exist_ok=True)
    out = {}
    with sync_playwright() as pw:
        ann, cy, stranger = Phone(pw, "Ann", url, folder_), Phone(pw, "Cy", url, folder_), Stranger(pw, folder_)
        events = lambda phone: phone.page.evaluate("window.gonuts.record('table') && window.gonuts.record('table').events")  # noqa: E731
        # -- the stranger as Ben's phone
        P = ann.page
        ann.start_game("Ann", "Ben", "Cy")
        P.locator("#table-link summary").click()
        ann.tap("#table-link-seat-1")
        P.wait_for_selector("#table-link-pair:not([hidden]) svg.qr")
        P.locator("#table-link-answer").fill(stranger.answer(P.locator("#table-link-code").inner_text()))
        ann.tap("#table-link-form button[type=submit]")
        stranger.opened()
        first = stranger.heard(1)[0]
        started = first["record"]["started"]
        out["first"] = first
        for g in GARBAGE:
            stranger.send(g)
        entry = lambda base, ev, s=started: {"kind": "entry", "started": s, "base": base, "ev": ev}   # noqa: E731
        wrong = [entry(0, {"seat": 1, "roll": [2, 2, 1]}),                 # Ben's entry on Ann's turn
                 entry(0, {"seat": 0, "roll": [2, 2, 1]}),                 # Ann's entry, from Ben's phone
                 entry(0, {"seat": 0, "roll": [2, 2, 1]}, "2020-01-01T00:00:00.000Z")]
        for w in wrong:
            stranger.send(w)
        heard = stranger.heard(1 + 2 * len(wrong))
        out["after_wrong"] = {"events": events(ann), "stale": sum(1 for m in heard if m != "(binary)" and m["kind"] == "stale"),
                              "error": P.locator("#table-error").inner_text()}
        ann.enter_bank(3)                                                  # Ann's turn: Ben's now
        n = len(stranger.heard(len(heard) + 1))
        for w in (entry(1, {"seat": 1, "roll": [9, 9, 9]}),                # the rules refuse it
                  entry(0, {"seat": 1, "roll": [2, 2, 1]})):               # made before Ann's entry
            stranger.send(w)
        heard = stranger.heard(n + 4)
        out["after_illegal"] = {"events": events(ann), "error": P.locator("#table-error").inner_text(),
                                "stale": sum(1 for m in heard[n:] if m != "(binary)" and m["kind"] == "stale")}
        stranger.send(entry(1, {"seat": 1, "roll": [2, 2, 1]}))
        stranger.send({"kind": "hints", "on": False})
        P.wait_for_function("() => window.gonuts.record('table').events.length === 2 && !window.gonuts.record('table').hints[1]")
        out["taken"] = {"events": events(ann), "hints": P.evaluate("window.gonuts.record('table').hints"),
                        "last_heard": stranger.heard(len(heard) + 2)[-1]}
        stranger.browser.close()
        # -- a stranger as the table phone of Cy, who has a game of her own
        stranger = Stranger(pw, folder_)
        C = cy.page
        cy.start_game("Xu", "Yan")
        cy.enter_bank(5)
        own = C.evaluate("window.gonuts.record('table')")
        C.locator("#table-join summary").click()
        C.locator("#join-paste").fill(stranger.offer())
        cy.tap("#join-form button[type=submit]")
        C.wait_for_selector("#join-answer:not([hidden])")
        stranger.accept(C.locator("#join-code").inner_text())
        stranger.opened()
        game = {"format": "gonuts-game", "version": 1, "reading": "rulebook", "players": 3, "target": 50, "you": 0,
                "mode": "table", "events": [{"seat": 0, "banked": 3}], "names": ["Ann", "Ben", "Cy"],
                "hints": [True, True, True], "started": "2026-12-06T10:00:00.000Z"}
        hostile = [*GARBAGE, {"kind": "stale"},
                   {"kind": "game", "name": "Cy", "record": {**game, "events": [{"seat": 1, "banked": 3}]}},   # out of turn
                   {"kind": "game", "name": "Dora", "record": game},                                           # not her game
                   {"kind": "game", "name": "Cy", "record": {**game, "names": ["Ann", "Ben", "C" * 500]}},
                   {"kind": "game", "name": "Cy", "record": {**game, "hints": [True]}},
                   {"kind": "game", "name": "Cy", "record": {**game, "started": 5}},
                   {"kind": "game", "name": "Cy", "record": {**game, "target": 10 ** 9}}]
        # every line the guest shows, as it shows it: a loaded machine may take longer than a step to read a
        # message, and a line may be replaced before a step would look
        C.evaluate("""() => { const box = document.getElementById("join-error"), said = window.__said = [];
            new MutationObserver(() => { const s = box.textContent; if (s && s !== said[said.length - 1]) said.push(s); })
              .observe(box, { childList: true, characterData: true, subtree: true }); }""")
        out["hostile_table"] = []
        for h in hostile:
            stranger.send(h)
            C.wait_for_timeout(150)
            out["hostile_table"].append({"record": C.evaluate("window.gonuts.record('table')"),
                                         "joined": not C.locator("#table-joined").is_hidden(),
                                         "error": C.locator("#table-error").inner_text()})
        try:    # the last one read: messages are read one at a time, in order
            C.wait_for_function("() => window.__said.some((s) => s.includes('1,000,000,000'))", timeout=60_000)
        except PlaywrightTimeout:
            pass
        out["said"] = C.evaluate("window.__said")
        stranger.send({"kind": "game", "name": "Cy", "record": game})
        C.wait_for_selector("#table-joined.linked:not([hidden])")
        out["adopted"] = {"record": C.evaluate("window.gonuts.record('table')"), "recent": C.evaluate("window.gonuts.record('recent')"),
                          "own": own}
        stranger.browser.close()
        out["errors"] = ann.errors + cy.errors
        for p in (ann, cy):
            p.ctx.close()
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    mode, page_url, where = sys.argv[1:4]
    sys.exit((main if mode == "game" else strangers)(page_url, where))
