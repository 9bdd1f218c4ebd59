"""The Python tests run against the installed package (`.ci/run` installs the wheel into a
fresh virtualenv); they must never import the source tree's `python/shellgate` by accident."""

import os
import sys

import pytest

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") not in (REPO, os.path.join(REPO, "python"))]


@pytest.fixture(scope="session")
def sg():
    import shellgate

    assert "site-packages" in shellgate.__file__, f"not the installed package: {shellgate.__file__}"
    return shellgate


@pytest.fixture()
def project(tmp_path):
    home = tmp_path / "home"
    work = home / "project"
    work.mkdir(parents=True)
    return str(home), str(work)
