"""The shipped 4-player page data (tables/page/) against a fresh encoding of fresh builds.

The page's 4-player games are shipped as their encoded data (``pagevalues.shipped_game``), so that the first
``gonuts-solve web`` needs neither the 4-player tables (200 MB each, a minute to build) nor the encoding.
This builds both 4-player tables at the page's target from nothing (a private cache: about 20 s each
here), encodes them as ``web`` would, and compares with what is shipped:

* the game's data (payouts, maxpoints rule, the encoding's descriptor, the table's checksum) exactly;
* the encoded values: the deflated bytes, and where a different zlib deflates differently, the inflated
  byte planes, which the page decodes.

    python bench/check_shipped_page.py            # exit 1 on any difference
    python bench/check_shipped_page.py --write    # regenerate tables/page/ (after a change to the encoding)

CI's tests check the shipped files without building (tests/site/test_shipped_page.py: sizes and CRC-32, the
payouts and rules recomputed, and the values a fixed point of the independent Bellman operator).
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

READINGS = ("rulebook", "summary")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--write", action="store_true", help="write tables/page/ from the fresh encodings")
    ap.add_argument("--tables", type=Path, default=None,
                    help="a folder that already holds gonuts-4p-t50-<reading>.npz (else they are built)")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="gonuts-shipped-page-") as cache:
        os.environ["GONUTS_SOLVE_CACHE"] = cache      # nothing from the user's cache: a fresh encoding
        from solver.game.rules import Rules
        from solver.site import pagegames, pagevalues
        from solver.store import build, tables
        from solver.store.locate import shipped_dir
        out = shipped_dir() / pagevalues.SHIPPED_PAGE
        bad = 0
        for reading in READINGS:
            rules = Rules.from_options(reading=reading, players=4, target=pagegames.TARGET)
            stem = pagevalues.page_stem(4, reading, pagegames.TARGET)
            path = (args.tables or Path(cache)) / f"{stem}.npz"
            t0 = time.perf_counter()
            if not path.is_file():
                build.build(rules, path)
            built = time.perf_counter() - t0
            d, blob = pagegames.game_data(tables.load(path, expect=rules))
            encoded = time.perf_counter() - t0 - built
            if args.write:
                out.mkdir(exist_ok=True)
                (out / f"{stem}.bin").write_bytes(blob)
                (out / f"{stem}.json").write_text(json.dumps(d, sort_keys=True, indent=1) + "\n")
                print(f"{stem}: wrote {len(blob):,} bytes (built in {built:.1f} s, encoded in {encoded:.1f} s)")
                continue
            shipped = pagevalues.shipped_game(4, reading, pagegames.TARGET)
            if shipped is None:
                print(f"{stem}: MISSING or damaged in {out}")
                bad += 1
                continue
            sd, sblob = shipped
            same_data = sd == json.loads(json.dumps(d))
            same_bytes = sblob == blob
            same_planes = same_bytes or zlib.decompress(sblob) == zlib.decompress(blob)
            ok = same_data and same_planes
            bad += not ok
            print(f"{stem}: data {'same' if same_data else 'DIFFERENT'}, deflated bytes "
                  f"{'same' if same_bytes else 'different (zlib ' + zlib.ZLIB_RUNTIME_VERSION + ')'}, "
                  f"values {'same' if same_planes else 'DIFFERENT'} (built in {built:.1f} s, encoded in {encoded:.1f} s)")
        return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
