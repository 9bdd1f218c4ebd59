"""A drop-in for Hermes Agent's command detection (``tools/approval.py``).

``detect_dangerous_command(command)`` returns what Hermes's function of that name
returns, ``(is_dangerous, pattern_key, description)`` with Hermes's keys (``(False, None,
None)`` when nothing needs a person), and ``detect_hardline_command(command)`` returns
``(is_hardline, description)`` for what must never run, in any mode. The judgement is
shellgate's (a bash syntax tree, decoded words, nested code, dataflow), not Hermes's
regexes: stricter on obfuscation, quieter on quoted text. The keys stay Hermes's, so a
user's ``command_allowlist`` and session approvals keep their meaning.

A command is judged with the analyzer alone (no shellgate config: Hermes's own gate
applies approvals, yolo and its allowlist), in this process's working directory and home.
What shellgate cannot judge is dangerous, and hardline: never ``(False, ...)``.

:func:`patch` puts both functions into a running Hermes (``tools.approval``).
"""

from __future__ import annotations

import os
from typing import Any, Optional, Tuple

from . import ShellgateError, Verdict, check

# What a finding whose rule has no Hermes counterpart is keyed by in Hermes's allowlist.
_KEY_PREFIX = "shellgate "
_UNJUDGED = "shellgate could not judge the command"


def _judge(command: str) -> Verdict:
    try:
        cwd: Optional[str] = os.getcwd()
    except OSError:
        cwd = None
    return check(command, cwd=cwd, config=False)


def _key(finding: Any) -> Tuple[str, str]:
    """Hermes's ``(pattern_key, description)`` for one finding."""
    if finding.hermes_key:
        return finding.hermes_key, finding.hermes_key
    return f"{_KEY_PREFIX}{finding.rule} {finding.name}", finding.message


def _first(v: Verdict, severity: Optional[str] = None) -> Any:
    """The finding that names the verdict: block findings before approve ones, and among
    them the first that carries a Hermes key."""
    ranked = sorted(v.findings, key=lambda f: (f.severity != "block", f.hermes_key is None))
    if severity is not None:
        ranked = [f for f in ranked if f.severity == severity]
    return ranked[0] if ranked else None


def detect_dangerous_command(command: str) -> Tuple[bool, Optional[str], Optional[str]]:
    """``(is_dangerous, pattern_key, description)``, as Hermes's function of that name."""
    try:
        v = _judge(command)
    except (ShellgateError, TypeError) as exc:
        return (True, _UNJUDGED, f"{_UNJUDGED}: {exc}")
    if v.decision == "allow":
        return (False, None, None)
    f = _first(v)
    if f is None:  # a decision with no finding (a user deny glob cannot apply here)
        return (True, _UNJUDGED, v.reason)
    key, description = _key(f)
    return (True, key, description)


def detect_hardline_command(command: str) -> Tuple[bool, Optional[str]]:
    """``(is_hardline, description)``: what must never run, whatever the mode."""
    try:
        v = _judge(command)
    except (ShellgateError, TypeError) as exc:
        return (True, f"{_UNJUDGED}: {exc}")
    if v.decision != "deny":
        return (False, None)
    f = _first(v, "block")
    if f is None:
        return (True, v.reason)
    return (True, _key(f)[1])


def patch(approval_module: Any = None) -> None:
    """Replace Hermes's detection with this one in a running Hermes: ``tools.approval``
    (and ``tools.approval_detection`` where a newer Hermes moved it). Hermes's gate, its
    approvals and allowlist stay Hermes's own."""
    modules = []
    if approval_module is not None:
        modules.append(approval_module)
    else:
        import importlib

        for name in ("tools.approval", "tools.approval_detection"):
            try:
                modules.append(importlib.import_module(name))
            except ImportError:
                continue
    for m in modules:
        if hasattr(m, "detect_dangerous_command"):
            m.detect_dangerous_command = detect_dangerous_command
        if hasattr(m, "detect_hardline_command"):
            m.detect_hardline_command = detect_hardline_command
