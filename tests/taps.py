"""Clicking as a person taps: the page ignores the second tap of a double tap (one within 350 ms of the redraw
the first caused, where the first landed: web/src/page/taps.js ``tap``), so a test that means two taps on one
spot waits between them, as a person does."""
from __future__ import annotations

import math
import time

SAME_SPOT = 30        # px: a tap this near the last one is on the same spot
PAUSE = 0.37          # s: after the last tap there, a little longer than the page's 350 ms


def clicker(page, how="click"):
    """click(selector): ``page.click`` (or with how="tap", a touch tap), after a pause when it lands where
    the last one did."""
    last = []

    def click(selector):
        page.locator(selector).scroll_into_view_if_needed()      # where the tap lands, not where it was before a scroll
        box = page.locator(selector).bounding_box()
        assert box is not None, f"{selector} is not on the page"
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        if last and math.hypot(x - last[0], y - last[1]) < SAME_SPOT:
            time.sleep(max(0.0, PAUSE - (time.monotonic() - last[2])))
        if how == "tap":
            page.locator(selector).tap()
        else:
            page.click(selector)
        last[:] = [x, y, time.monotonic()]
    return click
