"""PEP 517 backend for shellgate's wheel: maturin's, plus the native binary.

maturin builds the extension module (crates/shellgate-py) into the `shellgate` package.
Before it does, this builds the `shellgate` binary and stages it in the wheel's data
directory (`[tool.maturin] data`, `scripts/`), which pip installs onto PATH next to the
environment's Python: the hooks call that binary, not a Python shim, so a hook costs what
a cargo-built binary costs.

- ``SHELLGATE_WHEEL_BIN=PATH``: stage this prebuilt binary instead of building one (`.ci/run`
  passes the `cargo build-static` binary it already built).
- Otherwise: on x86_64 Linux the static-pie release binary (`cargo build-static`, no dynamic
  loader per hook call, no glibc version requirement); elsewhere `cargo build --release`.

The extension module's cargo profile is maturin's (`release`); `MATURIN_PEP517_ARGS`
passes others (`--profile wheel-ci` in `.ci/run`).
"""

from __future__ import annotations

import os
import platform
import shutil
import subprocess
import sys
from pathlib import Path

import maturin
from maturin import (  # noqa: F401  re-exported hooks
    build_sdist,
    get_requires_for_build_sdist,
    get_requires_for_build_wheel,
)

ROOT = Path(__file__).resolve().parent.parent
STAGED = ROOT / "target" / "wheel-data" / "scripts"


def _build_binary() -> Path:
    prebuilt = os.environ.get("SHELLGATE_WHEEL_BIN")
    if prebuilt:
        path = Path(prebuilt)
        if not (path.is_file() and os.access(path, os.X_OK)):
            raise RuntimeError(f"SHELLGATE_WHEEL_BIN={prebuilt} is not an executable file")
        return path
    static = sys.platform.startswith("linux") and platform.machine() == "x86_64"
    args = ["cargo", "build-static"] if static else ["cargo", "build", "--release", "--bin", "shellgate"]
    subprocess.run(args, cwd=ROOT, check=True)
    out = ROOT / "target" / ("x86_64-unknown-linux-gnu/release" if static else "release")
    return out / ("shellgate.exe" if os.name == "nt" else "shellgate")


def _stage_binary() -> None:
    binary = _build_binary()
    if STAGED.exists():
        shutil.rmtree(STAGED)
    STAGED.mkdir(parents=True)
    target = STAGED / binary.name
    shutil.copy2(binary, target)
    target.chmod(0o755)


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    _stage_binary()
    return maturin.build_wheel(wheel_directory, config_settings, metadata_directory)


def build_editable(wheel_directory, config_settings=None, metadata_directory=None):
    _stage_binary()
    return maturin.build_editable(wheel_directory, config_settings, metadata_directory)


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    # maturin checks that the data directory exists even for metadata.
    STAGED.mkdir(parents=True, exist_ok=True)
    return maturin.prepare_metadata_for_build_wheel(metadata_directory, config_settings)
