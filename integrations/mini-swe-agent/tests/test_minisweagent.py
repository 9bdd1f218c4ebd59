"""The wrapper and agent against the real mini-swe-agent (pinned in .ci/run)."""

import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
os.environ.setdefault("MSWEA_SILENT_STARTUP", "1")

from minisweagent.agents.default import DefaultAgent  # noqa: E402
from minisweagent.environments.local import LocalEnvironment  # noqa: E402
from minisweagent.exceptions import UserInterruption  # noqa: E402
from minisweagent.models.test_models import DeterministicModel, make_output  # noqa: E402

from shellgate_minisweagent import ShellgateEnvironment, ShellgateInteractiveAgent  # noqa: E402

TEMPLATES = {"system_template": "You are a test agent.", "instance_template": "{{task}}"}


@pytest.fixture()
def scene(tmp_path):
    home = tmp_path / "home"
    work = home / "work"
    work.mkdir(parents=True)
    env = ShellgateEnvironment(LocalEnvironment(cwd=str(work)), home=str(home), config=False)
    return env, work


def test_allowed_commands_run(scene):
    env, work = scene
    out = env.execute({"command": "touch made && echo hi"})
    assert out["returncode"] == 0 and "hi" in out["output"] and (work / "made").exists()


def test_denied_commands_never_run(scene):
    env, work = scene
    out = env.execute({"command": "touch made; mkfs.ext4 -q /dev/sdzz9"})
    assert out["returncode"] == 126 and "SG1201" in out["output"]
    assert not (work / "made").exists()


def test_asked_commands_need_a_person(scene):
    env, work = scene
    out = env.execute({"command": "touch made; git reset --hard"})
    assert out["returncode"] == 126 and "person must approve" in out["output"]
    assert not (work / "made").exists()
    env.approve("touch made; git reset --hard")
    env.execute({"command": "touch made; git reset --hard"})
    assert (work / "made").exists()
    (work / "made").unlink()
    assert env.execute({"command": "touch made; git reset --hard"})["returncode"] == 126, "an approval is used once"


def test_unjudgeable_commands_are_refused(scene):
    env, _ = scene
    assert env.execute({"command": "ls \udc80"})["returncode"] == 126


def run_agent(agent_cls, env, commands, **config):
    outputs = [make_output(f"step {i}", [{"command": c}]) for i, c in enumerate(commands)]
    outputs.append(make_output("done", [{"command": "echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT"}]))
    agent = agent_cls(DeterministicModel(outputs=outputs), env, **TEMPLATES, **config)
    return agent, agent.run("test")


def test_a_default_agent_run_refuses_and_tells_the_model(scene):
    env, work = scene
    agent, result = run_agent(DefaultAgent, env, ["touch made; rm -rf ~", "touch ok"])
    assert not (work / "made").exists() and (work / "ok").exists()
    assert any("SG1001" in str(m.get("content")) for m in agent.messages)


@pytest.mark.parametrize("mode", ["yolo", "confirm"])
def test_the_interactive_agent_asks_its_person(scene, monkeypatch, mode):
    env, work = scene
    answers = iter(["", "no, do not"])
    monkeypatch.setattr(ShellgateInteractiveAgent, "_prompt_and_handle_slash_commands",
                        lambda self, prompt, **k: next(answers, ""))
    outputs = [make_output("1", [{"command": "touch first; git reset --hard"}]),
               make_output("2", [{"command": "touch second; git reset --hard"}]),
               make_output("done", [{"command": "echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT"}])]
    agent = ShellgateInteractiveAgent(DeterministicModel(outputs=outputs), env, mode=mode, confirm_exit=False,
                                      **TEMPLATES)
    agent.run("test")
    assert (work / "first").exists(), "the person pressed Enter: it ran"
    assert not (work / "second").exists(), "the person rejected it: it did not run"
    assert any("rejected your commands" in str(m.get("content")) for m in agent.messages)


def test_yolo_mode_runs_allowed_commands_without_asking(scene, monkeypatch):
    env, work = scene

    def never(self, prompt, **k):
        raise AssertionError("asked about an allowed command in yolo mode")

    monkeypatch.setattr(ShellgateInteractiveAgent, "_prompt_and_handle_slash_commands", never)
    outputs = [make_output("1", [{"command": "touch fine"}]),
               make_output("done", [{"command": "echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT"}])]
    agent = ShellgateInteractiveAgent(DeterministicModel(outputs=outputs), env, mode="yolo", confirm_exit=False,
                                      **TEMPLATES)
    agent.run("test")
    assert (work / "fine").exists()
