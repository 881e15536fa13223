"""What the kernel reads from the environment (solver/engine/settings.py), checked before any work: a thread count,
a compile timeout and the vector setting out of their ranges are refused in one line naming the variable."""
from __future__ import annotations

import pytest

from solver.engine import settings
from solver.errors import GonutsError


@pytest.mark.parametrize("name, value, words", [("GONUTS_SOLVE_THREADS", "0", "from 1 to 256"),
                                                 ("GONUTS_SOLVE_THREADS", "many", "whole number"),
                                                 ("GONUTS_SOLVE_COMPILE_TIMEOUT", "-1", "above 0"),
                                                 ("GONUTS_SOLVE_SIMD", "avx9000", "GONUTS_SOLVE_SIMD")])
def test_a_bad_setting_is_refused_before_any_work(monkeypatch, name, value, words):
    monkeypatch.setenv(name, value)
    with pytest.raises(GonutsError, match=words):
        settings.check_environment()


def test_the_settings_in_range_are_taken(monkeypatch):
    monkeypatch.setenv("GONUTS_SOLVE_THREADS", "3")
    monkeypatch.setenv("GONUTS_SOLVE_COMPILE_TIMEOUT", "12.5")
    monkeypatch.setenv("GONUTS_SOLVE_SIMD", "off")
    assert settings.threads() == 3 and settings.compile_timeout() == 12.5 and settings.simd() == "off"
    monkeypatch.delenv("GONUTS_SOLVE_THREADS")
    assert 1 <= settings.threads() <= 16
