"""shellgate: a guard for AI agents' shell commands, in-process.

``check`` decides one command exactly as ``shellgate check`` does (the same config,
mode, session approvals; nothing is written to the ledger), ``explain`` returns the text
``shellgate explain`` prints, and ``check_many`` judges a batch on every core with the GIL
released. Anything that could not be judged raises a :class:`ShellgateError`; no function
here answers allow for input it could not analyse.

The native ``shellgate`` binary installed with this package (on ``PATH`` in the same
environment) is the hook harnesses call; :func:`binary` finds it.
"""

from __future__ import annotations

import os
import shutil
import sysconfig
from typing import Optional

from ._native import (
    ArgumentError,
    ConfigError,
    Finding,
    InputError,
    ShellgateError,
    Verdict,
    check,
    check_many,
    explain,
    hermes_keys,
    hook,
    version,
)

__all__ = [
    "ArgumentError",
    "ConfigError",
    "Finding",
    "InputError",
    "ShellgateError",
    "Verdict",
    "binary",
    "check",
    "check_many",
    "explain",
    "hermes_keys",
    "hook",
    "version",
]

__version__ = version()


def binary() -> Optional[str]:
    """The native ``shellgate`` binary installed with this package (the environment's
    scripts directory), else the one on ``PATH``; ``None`` when there is none."""
    scripts = sysconfig.get_path("scripts")
    if scripts:
        candidate = os.path.join(scripts, "shellgate.exe" if os.name == "nt" else "shellgate")
        if os.access(candidate, os.X_OK):
            return candidate
    return shutil.which("shellgate")
