"""Type stubs for the native module; the public names are re-exported by ``shellgate``."""

import os
from typing import Iterable, Literal, Optional, Union

Decision = Literal["allow", "ask", "deny"]
Severity = Literal["approve", "block"]
Mode = Literal["manual", "smart", "off"]
ConfigArg = Union[str, "os.PathLike[str]", bool, None]

class ShellgateError(Exception):
    """No decision was made: the command must not run."""

class ConfigError(ShellgateError):
    """A config file could not be read or parsed."""

class InputError(ShellgateError):
    """The command is not text shellgate can judge (not UTF-8, lone surrogates)."""

class ArgumentError(ShellgateError):
    """An option is not usable (unknown mode or harness, conflicting options)."""

class Finding:
    """One finding: which rule fired, where, and why."""

    @property
    def rule(self) -> str: ...
    @property
    def name(self) -> str: ...
    @property
    def severity(self) -> Severity: ...
    @property
    def message(self) -> str: ...
    @property
    def span(self) -> tuple[int, int]:
        """``(start, end)`` in characters: ``command[start:end]`` is the text it is about."""
    @property
    def byte_span(self) -> tuple[int, int]:
        """``(start, end)`` in UTF-8 bytes, as the CLI prints spans."""
    @property
    def target(self) -> str:
        """The pipeline the finding is in (the approval key's target)."""
    @property
    def hermes_key(self) -> Optional[str]:
        """The Hermes Agent approval key this rule corresponds to, if any."""

class Verdict:
    """The decision on one command and everything behind it."""

    @property
    def command(self) -> str: ...
    @property
    def decision(self) -> Decision: ...
    @property
    def findings(self) -> list[Finding]: ...
    @property
    def reason(self) -> str: ...
    @property
    def decided_by(self) -> str:
        """``rule``, ``deny-glob``, ``no-findings``, ``mode-off``, ``allowlist``,
        ``session-approval``, ``smart``, ``ask``, ``unattended``, ..."""
    @property
    def mode(self) -> Mode: ...
    def to_dict(self) -> dict[str, object]:
        """The result as ``shellgate check --jsonl`` writes it (byte spans)."""

def check(
    command: Union[str, bytes],
    *,
    cwd: Optional[str] = None,
    home: Optional[str] = None,
    mode: Optional[Mode] = None,
    config: ConfigArg = None,
    session: Optional[str] = None,
    harness: Optional[str] = None,
    unattended: bool = False,
) -> Verdict:
    """Decide one command as ``shellgate check`` does. ``config``: ``None``/``True`` the
    default files, ``False`` none (the analyzer's own decision), or a path."""

def explain(
    command: Union[str, bytes],
    *,
    cwd: Optional[str] = None,
    home: Optional[str] = None,
    mode: Optional[Mode] = None,
    config: ConfigArg = None,
    session: Optional[str] = None,
    harness: Optional[str] = None,
    unattended: bool = False,
    color: bool = False,
) -> str:
    """The text report ``shellgate explain`` prints."""

def check_many(
    commands: Iterable[Union[str, bytes]],
    *,
    jobs: Optional[int] = None,
    cwd: Optional[str] = None,
    home: Optional[str] = None,
    mode: Optional[Mode] = None,
    config: ConfigArg = None,
    session: Optional[str] = None,
    harness: Optional[str] = None,
    unattended: bool = False,
) -> list[Verdict]:
    """Decide every command, in input order, on ``jobs`` threads (default: every core),
    the GIL released. With a session the batch runs on one thread (order matters)."""

def hook(
    harness: Literal["claude", "codex", "gemini", "copilot", "hermes", "hermes-plugin"],
    event: Union[str, bytes],
    *,
    own_binary: Optional[str] = None,
    home: Optional[str] = None,
) -> tuple[str, str, bool]:
    """Answer one hook event as ``shellgate hook HARNESS`` would: ``(stdout, stderr,
    block)``, ``block`` meaning the hook's blocking exit status. ``home`` overrides
    ``$HOME`` for what counts as the user's files."""

def version() -> str: ...
def hermes_keys() -> list[str]: ...
def rules_json() -> str: ...
