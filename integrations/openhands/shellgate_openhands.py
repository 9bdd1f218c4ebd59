"""shellgate as an OpenHands security analyzer (``openhands-sdk``'s ``SecurityAnalyzerBase``).

OpenHands asks its security analyzer for the risk of every pending action, and its
confirmation policy (``ConfirmRisky``) puts risky ones in front of a person. This analyzer
judges each terminal command with shellgate (in process: ``pip install shellgate``) and each
file edit with shellgate's write guard, and maps the decision onto OpenHands's risk levels:

=========  ==============  ==================================================================
shellgate  SecurityRisk    what OpenHands does (``ConfirmRisky``, default threshold HIGH)
=========  ==============  ==================================================================
allow      LOW             runs
ask        HIGH            asks the person to confirm
deny       HIGH            asks the person to confirm; the details say ``deny`` and why
(error)    HIGH            asks: what shellgate could not judge is never LOW
=========  ==============  ==================================================================

An OpenHands analyzer can only rate risk: it cannot refuse an action on its own, so a deny
reaches a person as HIGH with shellgate's reason (``details["decision"] == "deny"``). Where
a deny must never run, put shellgate's hook or ``shellgate exec`` in the runtime as well.
Tools: ``terminal`` / ``bash`` / ``execute_bash`` (``command``) and ``file_editor`` /
``str_replace_editor`` (``path``, edit commands); anything else is LOW.
"""

from __future__ import annotations

import json
import os
from typing import Any, Optional

from openhands.sdk.event import ActionEvent
from openhands.sdk.security.analyzer import SecurityAnalysis, SecurityAnalyzerBase
from openhands.sdk.security.risk import SecurityRisk
from pydantic import Field

import shellgate

SHELL_TOOLS = frozenset({"terminal", "bash", "execute_bash"})
EDIT_TOOLS = frozenset({"file_editor", "str_replace_editor"})
# file_editor commands that change the file (view only reads it).
WRITING = frozenset({"create", "str_replace", "insert", "undo_edit", "write"})
RISK = {"allow": SecurityRisk.LOW, "ask": SecurityRisk.HIGH, "deny": SecurityRisk.HIGH}


def _arguments(action: ActionEvent) -> dict[str, Any]:
    raw = action.tool_call.arguments if action.tool_call else "{}"
    args = json.loads(raw or "{}")
    if not isinstance(args, dict):
        raise ValueError("the tool call's arguments are not a JSON object")
    return args


class ShellgateSecurityAnalyzer(SecurityAnalyzerBase):
    """Rates each pending action by shellgate's decision (see the module docs)."""

    cwd: Optional[str] = Field(default=None, description="Where commands run (default: the process's directory)")
    home: Optional[str] = Field(default=None, description="The home of the user running them (default: $HOME)")
    config: Optional[str] = Field(default=None, description="shellgate config file (default: the user's)")

    def _shell(self, command: str) -> SecurityAnalysis:
        kwargs: dict[str, Any] = {"cwd": self.cwd, "home": self.home, "harness": "openhands"}
        if self.config:
            kwargs["config"] = self.config
        v = shellgate.check(command, **kwargs)
        return SecurityAnalysis(risk=RISK[v.decision], details={
            "decision": v.decision, "reason": v.reason,
            "rules": [f.rule for f in v.findings],
        })

    def _write(self, path: str) -> SecurityAnalysis:
        event = {"hook_event_name": "PreToolUse", "tool_name": "Write",
                 "tool_input": {"file_path": path}, "cwd": self.cwd or os.getcwd(), "session_id": ""}
        out, _err, block = shellgate.hook("claude", json.dumps(event), home=self.home)
        if not out.strip():
            decision, reason = ("deny", "shellgate blocked the write") if block else ("allow", "")
        else:
            answer = json.loads(out).get("hookSpecificOutput", {})
            decision = answer.get("permissionDecision", "deny")
            reason = answer.get("permissionDecisionReason", "")
        return SecurityAnalysis(risk=RISK.get(decision, SecurityRisk.HIGH),
                                details={"decision": decision, "reason": reason})

    def analyze_action(self, action: ActionEvent) -> SecurityAnalysis:
        try:
            args = _arguments(action)
            tool = action.tool_name
            if tool in SHELL_TOOLS and isinstance(args.get("command"), str):
                return self._shell(args["command"])
            if tool in EDIT_TOOLS and args.get("command") in WRITING and isinstance(args.get("path"), str):
                return self._write(args["path"])
            if tool in SHELL_TOOLS | EDIT_TOOLS:
                return SecurityAnalysis(risk=SecurityRisk.LOW if tool in EDIT_TOOLS else SecurityRisk.HIGH,
                                        details={"decision": "allow" if tool in EDIT_TOOLS else "ask",
                                                 "reason": "no command to judge"})
            return SecurityAnalysis(risk=SecurityRisk.LOW)
        except Exception as exc:  # noqa: BLE001 — what could not be judged is HIGH, never LOW
            return SecurityAnalysis(risk=SecurityRisk.HIGH,
                                    details={"decision": "deny", "error": f"{type(exc).__name__}: {exc}"})

    def security_risk(self, action: ActionEvent) -> SecurityRisk:
        return self.analyze_action(action).risk
