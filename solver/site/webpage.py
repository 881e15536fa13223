"""The web page's HTML: ``page(tables)`` assembles ``web/page.html``, ``web/style.css`` and ``web/page.js`` (the
bundle of ``web/src/``: the pure core, the DOM layer, a folder per tab) with the page's data
(``pagegames.page_data``) into one self-contained file, under a Content-Security-Policy that names
each inline script and style by its hash. The installable site is ``website``. Nothing is fetched at
run time.
"""
from __future__ import annotations

import base64
import hashlib
import json
from collections.abc import Iterable
from html import escape as html_escape
from pathlib import Path
from typing import Any

from solver.errors import GonutsError
from solver.files import StrPath, atomic_write, check_destination
from solver.site.pagegames import PageGame, page_data
from solver.version import __version__

ASSETS = Path(__file__).resolve().parent / "web"


# The page's script: web/src/ (ES modules: core/, page/, tabs/<tab>/) bundled by esbuild into one committed
# file (npm run build; tests/site/test_bundle.py rebuilds it and compares bytes), so a Python user never needs Node.
BUNDLE = "page.js"


# The single file makes no request at all; the site fetches its own files only (and may register its worker).
# No inline script or style runs unnamed: each is listed by its SHA-256 (@SCRIPTS@, @STYLES@), never
# 'unsafe-inline', so no text from a record, a name or the address can ever run as script.
# The page solves games itself (page/solving.js): 'wasm-unsafe-eval' lets it compile its own WebAssembly kernel
# (it allows no eval of JavaScript), and `worker-src blob:` lets it start its solver's worker from a blob of the
# worker's script, which only the page's own (hash-named) script can make; a blob worker runs under this same
# policy (a file worker would run under the headers of whatever host serves it, and the single file has no files).
FILE_CSP = ("default-src 'none'; script-src 'wasm-unsafe-eval' @SCRIPTS@; style-src @STYLES@; img-src data: blob:; "
            "connect-src 'none'; worker-src blob:; form-action 'none'; base-uri 'none'; object-src 'none'")


SITE_CSP = ("default-src 'none'; script-src 'self' 'wasm-unsafe-eval' @SCRIPTS@; style-src @STYLES@; "
            "img-src 'self' data: blob:; connect-src 'self'; worker-src 'self' blob:; manifest-src 'self'; "
            "form-action 'none'; base-uri 'none'; object-src 'none'")


SITE_HEAD = ('<link rel="manifest" href="manifest.webmanifest">\n'
             '<link rel="icon" href="icon-192.png" sizes="192x192">\n'
             '<link rel="apple-touch-icon" href="apple-touch-icon.png">\n'
             '<meta name="theme-color" content="#6b3e10">\n'
             '<meta name="apple-mobile-web-app-capable" content="yes">\n'
             '<meta name="mobile-web-app-capable" content="yes">\n'
             '<meta name="apple-mobile-web-app-status-bar-style" content="default">\n'
             '<meta name="apple-mobile-web-app-title" content="Go Nuts!">')


def html(data: dict[str, Any], site: bool = False, script: str | None = None) -> str:
    """The page: the template with its style, core, UI and data (``site``: the installable app's head).

    ``script``: the site's script file (``site_script``, at this address beside index.html), which then carries
    the data and the code: the page alone is a sixth of their size, so its first paint does not wait for them
    on a slow network (the file is fetched as the head is read, and runs when the page is read, as the inline
    script at the end of the body does). Without it both are inline: the one file makes no request at all."""
    page = (ASSETS / "page.html").read_text(encoding="utf-8")
    style = (ASSETS / "style.css").read_text(encoding="utf-8")
    if script is None:
        text = _json(data)
        # JSON inside <script>: no "</" may appear; "<" is escaped as in any JSON string.
        scripts = [(ASSETS / BUNDLE).read_text(encoding="utf-8")]
        body = f'<script id="gonuts-data" type="application/json">{text}</script>\n<script>{scripts[0]}</script>'
        head = SITE_HEAD if site else ""
    else:
        # An address without its last slash (/sub/dir) would fetch the script from the folder above: the page
        # goes on to /sub/dir/ before anything else, and the script it fetched in vain never runs.
        scripts = [MOVE]
        body = ""
        head = f'{SITE_HEAD}\n<script>{MOVE}</script>\n<script src="{script}" defer></script>'
    csp = (SITE_CSP if site else FILE_CSP).replace("@SCRIPTS@", " ".join(map(_sha256, scripts))) \
        .replace("@STYLES@", _sha256(style))
    parts = {
        "<!--@HEAD@-->": head,
        "@CSP@": csp,
        "/*@STYLE@*/": style,
        "<!--@DATA-AND-SCRIPT@-->": body,
    }
    page = page.replace("@VERSION@", __version__).replace("@TARGET@", str(data["record"]["target"])) \
        .replace("@PRECISION@", precision_line(data["precision"])).replace("@READING@", reading_line(data))
    for marker, part in parts.items():
        if page.count(marker) != 1:
            raise GonutsError(f"page template: marker {marker} must appear exactly once")
        page = page.replace(marker, part)
    return page


# The site page's one inline script: an address without its last slash goes on to the folder (page/context.js
# does the same for the bundle, which then starts nothing).
MOVE = ('if (/^https?:$/.test(location.protocol) && !/\\/$|\\.html?$/i.test(location.pathname)) '
        'location.replace(`${location.pathname}/${location.search}${location.hash}`);')


def site_script(data: dict[str, Any]) -> str:
    """The site's script file: the page's data (read by page/context.js from ``self.gonutsData``), then the
    bundle. The data goes through JSON.parse, as the single file's does (faster than a literal this size,
    and JSON's meaning exactly)."""
    text = _json(data)
    return (f"self.gonutsData = JSON.parse({json.dumps(text, ensure_ascii=False)});\n"
            + (ASSETS / BUNDLE).read_text(encoding="utf-8"))


def _json(data: dict[str, Any]) -> str:
    """The page's data with its catalogues, as compact JSON in which no "<" appears (it may sit in a <script>)."""
    text = json.dumps(dict(data, messages=messages()), separators=(",", ":"), ensure_ascii=False)
    return text.replace("<", "\\u003c")


LANGUAGES = ("en", "es", "fr", "de")


def messages() -> dict[str, Any]:
    """The page's message catalogues (``web/messages/LANG.json``: the English text as key, as gettext does), as
    they travel in the page: the keys once, in English's order, and each other language's messages in that
    order (a smaller first paint than four keyed copies); English sends only its plural forms, since every
    other key says itself. The page's ``i18n.js`` (``keyed``) makes them keyed catalogues again."""
    cats = {lang: json.loads((ASSETS / "messages" / f"{lang}.json").read_text(encoding="utf-8")) for lang in LANGUAGES}
    keys = list(cats["en"])
    out: dict[str, Any] = {"keys": keys, "en": {k: v for k, v in cats["en"].items() if v != k}}
    for lang in LANGUAGES:
        if lang != "en":
            out[lang] = [cats[lang][k] for k in keys]       # tests/site/test_page_words.py: every key in every language
    return out


def precision_line(precision: dict[str, float]) -> str:
    """"Numbers as stored: 2 players: exact; 4 players: within 7.6e-6." (in the page's first paint: written
    by JavaScript after it, the line would move the page)."""
    def one(n: str, e: float) -> str:
        if not e > 0:
            return f"{n} players: exact"
        mantissa, _, exponent = f"{e:.1e}".partition("e")
        return f"{n} players: within {mantissa}e{int(exponent)}"
    return "Numbers as stored: " + "; ".join(one(n, e) for n, e in precision.items()) + "."


def reading_line(data: dict[str, Any]) -> str:
    """The Advise tab's first reading in English, as its script says it (page/advice.js readingText, whose words
    are the catalogue's "Rulebook reading: ..." and "Summary reading: ..."), so the first paint is whole: the
    first game's reading, in the order the script lists them."""
    reading = sorted(data["games"])[0].split("-", 1)[1]
    said = [k for k in json.loads((ASSETS / "messages" / "en.json").read_text(encoding="utf-8"))
            if k.startswith(f"{reading.capitalize()} reading: ")]
    if len(said) != 1:
        raise GonutsError(f"page words: {len(said)} sentences say the {reading} reading, not one")
    return html_escape(said[0], quote=False)


def _sha256(text: str) -> str:
    """A CSP source naming one inline script or style by its content."""
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii") + "'"


def page(tables: Iterable[PageGame]) -> str:
    """The self-contained page embedding ``tables`` (an iterable of loaded ``Table``)."""
    return html(page_data(tables))


def write(path: StrPath, html: str) -> int:
    """Write the page atomically; returns its size in bytes."""
    out = check_destination(path)
    atomic_write(out, lambda fh: fh.write(html.encode("utf-8")))
    return out.stat().st_size
