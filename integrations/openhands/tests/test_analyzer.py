"""The shellgate analyzer against the real openhands-sdk (pinned in .ci/run)."""

import json
import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# LiteLLM (an openhands-sdk dependency) fetches a price list from the network at import
# unless told to use its bundled copy; tests talk to nothing but this machine.
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
os.environ.setdefault("OPENHANDS_SUPPRESS_BANNER", "1")

from openhands.sdk.event import ActionEvent  # noqa: E402
from openhands.sdk.llm import MessageToolCall, TextContent  # noqa: E402
from openhands.sdk.security import ConfirmRisky, SecurityAnalyzerBase  # noqa: E402
from openhands.sdk.security.risk import SecurityRisk  # noqa: E402

from shellgate_openhands import ShellgateSecurityAnalyzer  # noqa: E402


def action(tool, args, raw=None):
    call = MessageToolCall(id="call_1", name=tool, arguments=raw if raw is not None else json.dumps(args),
                           origin="completion")
    return ActionEvent(thought=[TextContent(text="")], tool_name=tool, tool_call_id="call_1",
                       tool_call=call, llm_response_id="resp_1")


@pytest.fixture()
def analyzer(tmp_path):
    home = tmp_path / "home"
    (home / "work").mkdir(parents=True)
    return ShellgateSecurityAnalyzer(cwd=str(home / "work"), home=str(home))


def test_decisions_map_onto_risk(analyzer):
    cases = {"ls -la": SecurityRisk.LOW, "git reset --hard": SecurityRisk.HIGH, "rm -rf ~": SecurityRisk.HIGH}
    for cmd, risk in cases.items():
        a = analyzer.analyze_action(action("terminal", {"command": cmd}))
        assert a.risk == risk, cmd
    deny = analyzer.analyze_action(action("terminal", {"command": "rm -rf ~"}))
    assert deny.details["decision"] == "deny" and "SG1001" in deny.details["rules"]


def test_confirm_risky_asks_for_what_shellgate_asks_or_denies(analyzer):
    policy = ConfirmRisky()
    pending = [action("terminal", {"command": c}) for c in ("echo hi", "git push --force", "mkfs.ext4 /dev/sda")]
    risks = [r for _, r in analyzer.analyze_pending_actions(pending)]
    assert [policy.should_confirm(r) for r in risks] == [False, True, True]


def test_file_edits_go_through_the_write_guard(analyzer, tmp_path):
    home = str(tmp_path / "home")
    creds = analyzer.analyze_action(action("file_editor", {"command": "create", "path": home + "/.ssh/authorized_keys",
                                                           "file_text": "k"}))
    assert creds.risk == SecurityRisk.HIGH
    notes = analyzer.analyze_action(action("file_editor", {"command": "create", "path": home + "/work/notes.md",
                                                           "file_text": "k"}))
    assert notes.risk == SecurityRisk.LOW
    view = analyzer.analyze_action(action("file_editor", {"command": "view", "path": "/etc/shadow"}))
    assert view.risk == SecurityRisk.LOW


def test_what_cannot_be_judged_is_high(analyzer):
    assert analyzer.analyze_action(action("terminal", {}, raw="{not json")).risk == SecurityRisk.HIGH
    assert analyzer.analyze_action(action("terminal", {"command": "rm \udc80"})).risk == SecurityRisk.HIGH
    assert analyzer.analyze_action(action("terminal", {"cmd": "ls"})).risk == SecurityRisk.HIGH


def test_other_tools_are_low(analyzer):
    assert analyzer.analyze_action(action("think", {"thought": "rm -rf ~"})).risk == SecurityRisk.LOW


def test_it_is_an_openhands_analyzer_that_round_trips(analyzer):
    assert isinstance(analyzer, SecurityAnalyzerBase)
    again = SecurityAnalyzerBase.model_validate(json.loads(analyzer.model_dump_json()))
    assert isinstance(again, ShellgateSecurityAnalyzer) and again.cwd == analyzer.cwd
