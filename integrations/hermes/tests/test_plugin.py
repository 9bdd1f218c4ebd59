"""Tests for the shellgate Hermes plugin (standard library only).

Run: python3 -m unittest discover -s integrations/hermes/tests
With SHELLGATE_BIN pointing at a built shellgate, the real decisions are checked too;
.ci/run sets it. Without it those tests fail unless SHELLGATE_PLUGIN_TESTS_NO_BINARY=1.
"""

import os
import stat
import sys
import tempfile
import textwrap
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

import shellgate  # noqa: E402  (the plugin package)


def fake_binary(dirpath, body):
    """A stand-in shellgate that runs `body` (Python) with the event on stdin."""
    path = os.path.join(dirpath, "shellgate")
    with open(path, "w") as f:
        f.write(f"#!{sys.executable}\nimport sys, json, time\nevent = json.load(sys.stdin)\n")
        f.write(textwrap.dedent(body))
    os.chmod(path, os.stat(path).st_mode | stat.S_IEXEC)
    return path


class env:
    """Set (or, with None, remove) environment variables for a block."""

    def __init__(self, **values):
        self.values = values
        self.saved = {}

    def __enter__(self):
        for k, v in self.values.items():
            self.saved[k] = os.environ.get(k)
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v

    def __exit__(self, *exc):
        for k, v in self.saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


class WithFake(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.old = os.environ.get("SHELLGATE_BIN")

    def tearDown(self):
        if self.old is None:
            os.environ.pop("SHELLGATE_BIN", None)
        else:
            os.environ["SHELLGATE_BIN"] = self.old
        self.tmp.cleanup()

    def use(self, body):
        os.environ["SHELLGATE_BIN"] = fake_binary(self.tmp.name, body)


class MapsShellgateAnswers(WithFake):
    def test_deny_becomes_block_with_the_reason(self):
        self.use('print(json.dumps({"action": "block", "message": "shellgate: deny - SG1001"}))\n')
        self.assertEqual(shellgate.pre_tool_call("terminal", {"command": "rm -rf /"}),
                         {"action": "block", "message": "shellgate: deny - SG1001"})

    def test_ask_becomes_approve_so_hermes_prompts(self):
        self.use('print(json.dumps({"action": "approve", "message": "shellgate: ask - SG3301"}))\n')
        with env(HERMES_INTERACTIVE="1", HERMES_YOLO_MODE=None):
            self.assertEqual(shellgate.pre_tool_call("terminal", {"command": "git reset --hard"}),
                             {"action": "approve", "message": "shellgate: ask - SG3301"})

    def test_ask_blocks_when_nobody_can_answer_or_yolo_is_on(self):
        # hermes -z sets HERMES_YOLO_MODE, and Hermes's gate then approves unasked.
        self.use('print(json.dumps({"action": "approve", "message": "shellgate: ask - SG3301"}))\n')
        for setting in ({"HERMES_INTERACTIVE": None, "HERMES_YOLO_MODE": None},
                        {"HERMES_INTERACTIVE": "1", "HERMES_YOLO_MODE": "1"}):
            with env(**setting):
                d = shellgate.pre_tool_call("terminal", {"command": "git reset --hard"})
                self.assertEqual(d["action"], "block", setting)
                self.assertIn("SG3301", d["message"])

    def test_allow_lets_the_call_run(self):
        self.use("pass\n")
        self.assertIsNone(shellgate.pre_tool_call("terminal", {"command": "ls"}))

    def test_the_event_carries_tool_args_session_and_cwd(self):
        self.use('import os\nassert event["tool_name"] == "write_file", event\n'
                 'assert event["tool_input"] == {"path": "a", "content": "b"}, event\n'
                 'assert event["session_id"] == "s1" and event["cwd"] == os.getcwd(), event\n')
        self.assertIsNone(shellgate.pre_tool_call("write_file", {"path": "a", "content": "b"}, session_id="s1"))

    def test_other_tools_are_not_judged(self):
        self.use('print("garbage")\n')
        self.assertIsNone(shellgate.pre_tool_call("web_search", {"query": "x"}))


class FailsClosed(WithFake):
    def test_missing_binary_blocks(self):
        os.environ["SHELLGATE_BIN"] = os.path.join(self.tmp.name, "nope")
        self.assertEqual(shellgate.pre_tool_call("terminal", {"command": "ls"})["action"], "block")

    def test_unexpected_exit_code_blocks(self):
        self.use("sys.exit(1)\n")
        self.assertEqual(shellgate.pre_tool_call("terminal", {"command": "ls"})["action"], "block")

    def test_exit_2_without_output_blocks(self):
        self.use('sys.stderr.write("no")\nsys.exit(2)\n')
        self.assertEqual(shellgate.pre_tool_call("patch", {"path": "x"})["action"], "block")

    def test_garbage_and_unknown_actions_block(self):
        for body in ['print("not json")\n', 'print("[1]")\n', 'print(json.dumps({"action": "allow"}))\n']:
            self.use(body)
            self.assertEqual(shellgate.pre_tool_call("terminal", {"command": "ls"})["action"], "block", body)

    def test_a_hung_shellgate_blocks(self):
        self.use("time.sleep(30)\n")
        old = shellgate.TIMEOUT_SECONDS
        shellgate.TIMEOUT_SECONDS = 0.5
        try:
            self.assertEqual(shellgate.pre_tool_call("terminal", {"command": "ls"})["action"], "block")
        finally:
            shellgate.TIMEOUT_SECONDS = old

    def test_registers_its_hook(self):
        seen = {}

        class Ctx:
            def register_hook(self, name, cb):
                seen[name] = cb

        shellgate.register(Ctx())
        self.assertIs(seen["pre_tool_call"], shellgate.pre_tool_call)


REAL = os.environ.get("SHELLGATE_BIN")


class WithTheRealBinary(unittest.TestCase):
    def setUp(self):
        if not REAL:
            if os.environ.get("SHELLGATE_PLUGIN_TESTS_NO_BINARY") == "1":
                self.skipTest("SHELLGATE_BIN not set (SHELLGATE_PLUGIN_TESTS_NO_BINARY=1)")
            self.fail("set SHELLGATE_BIN to a built shellgate (or SHELLGATE_PLUGIN_TESTS_NO_BINARY=1 to skip)")
        os.environ["SHELLGATE_BIN"] = REAL

    def test_real_decisions(self):
        self.assertEqual(shellgate.decide("terminal", {"command": "rm -rf /"}, cwd="/tmp")["action"], "block")
        with env(HERMES_INTERACTIVE="1", HERMES_YOLO_MODE=None):
            self.assertEqual(shellgate.decide("terminal", {"command": "git reset --hard"}, cwd="/tmp")["action"], "approve")
        self.assertIsNone(shellgate.decide("terminal", {"command": "ls -la"}, cwd="/tmp"))
        home = os.path.expanduser("~")
        with env(HERMES_INTERACTIVE="1", HERMES_YOLO_MODE=None):
            w = shellgate.decide("write_file", {"path": home + "/.ssh/authorized_keys", "content": "k"}, cwd="/tmp")
        self.assertEqual(w["action"], "approve")
        self.assertIn("credential", w["message"])


class InProcess(unittest.TestCase):
    """With the shellgate Python package installed (and no SHELLGATE_BIN), the plugin asks
    in process: the same decisions, and no process is started."""

    def setUp(self):
        self.api = shellgate.inprocess_api()
        if self.api is None:
            if os.environ.get("SHELLGATE_PLUGIN_TESTS_INPROCESS") == "1":
                self.fail("the shellgate package is not importable (SHELLGATE_PLUGIN_TESTS_INPROCESS=1)")
            self.skipTest("the shellgate Python package is not installed")
        self.old = os.environ.pop("SHELLGATE_BIN", None)
        self.run_before = shellgate.subprocess.run

        def no_process(*a, **k):
            raise AssertionError("the plugin started a process although the package is installed")

        shellgate.subprocess.run = no_process

    def tearDown(self):
        shellgate.subprocess.run = self.run_before
        if self.old is not None:
            os.environ["SHELLGATE_BIN"] = self.old

    def test_in_process_decisions_match_the_binary_protocol(self):
        self.assertEqual(shellgate.decide("terminal", {"command": "rm -rf /"}, cwd="/tmp")["action"], "block")
        with env(HERMES_INTERACTIVE="1", HERMES_YOLO_MODE=None):
            self.assertEqual(shellgate.decide("terminal", {"command": "git reset --hard"}, cwd="/tmp")["action"], "approve")
        with env(HERMES_INTERACTIVE=None, HERMES_GATEWAY_SESSION=None, HERMES_YOLO_MODE=None):
            self.assertEqual(shellgate.decide("terminal", {"command": "git reset --hard"}, cwd="/tmp")["action"], "block")
        self.assertIsNone(shellgate.decide("terminal", {"command": "ls -la"}, cwd="/tmp"))
        home = os.path.expanduser("~")
        with env(HERMES_INTERACTIVE="1", HERMES_YOLO_MODE=None):
            w = shellgate.decide("write_file", {"path": home + "/.ssh/authorized_keys", "content": "k"}, cwd="/tmp")
        self.assertEqual(w["action"], "approve")

    def test_an_in_process_failure_blocks(self):
        real = self.api.hook

        def broken(*a, **k):
            raise RuntimeError("boom")

        self.api.hook = broken
        try:
            d = shellgate.pre_tool_call("terminal", {"command": "ls"}, session_id="s")
        finally:
            self.api.hook = real
        self.assertEqual(d["action"], "block")


if __name__ == "__main__":
    unittest.main()
