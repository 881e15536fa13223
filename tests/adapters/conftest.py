"""The adapters' tests build their tables into one private cache for the session."""
import pytest


@pytest.fixture(autouse=True)
def _cache(tmp_path_factory, monkeypatch):
    monkeypatch.setenv("GONUTS_SOLVE_CACHE", str(tmp_path_factory.getbasetemp() / "rl-cache"))
