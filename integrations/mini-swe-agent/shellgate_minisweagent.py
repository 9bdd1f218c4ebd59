"""shellgate for mini-swe-agent: an environment wrapper that refuses what shellgate denies,
and an interactive agent that asks a person (through mini-swe-agent's own confirmation
prompt) about what shellgate asks about.

``ShellgateEnvironment(env)`` wraps any mini-swe-agent environment (``LocalEnvironment``,
``DockerEnvironment``, ...). Before a command runs it asks shellgate (in process, ``pip
install shellgate``):

* allow: the wrapped environment runs it;
* deny: it does not run; the observation says ``shellgate blocked this command: ...`` with
  return code 126 (the model sees why);
* ask: it runs only when a person approved exactly this command (``approve``); otherwise it
  is refused like a deny, saying a person must approve it;
* a command shellgate could not judge is refused.

``ShellgateInteractiveAgent`` is mini-swe-agent's ``InteractiveAgent`` whose confirmation
prompt also appears, in every mode (``yolo`` and whitelisted commands included), for
commands shellgate asks about; the person's Enter approves them for the environment, a
rejection interrupts as mini-swe-agent does. With the plain ``DefaultAgent`` nobody is
asked, so an ask is refused.
"""

from __future__ import annotations

from typing import Any

from minisweagent.agents.interactive import InteractiveAgent

import shellgate

REFUSED = 126  # the exit status `shellgate exec` uses for a refused command


class ShellgateEnvironment:
    """Wraps a mini-swe-agent environment; see the module docs."""

    def __init__(self, env: Any, *, home: str | None = None, config: Any = None, harness: str = "mini-swe-agent"):
        self.env = env
        self.home = home
        self.config_arg = config
        self.harness = harness
        self._approved: list[str] = []

    def __getattr__(self, name: str) -> Any:
        # config, get_template_vars, serialize, ...: the wrapped environment's own.
        return getattr(self.env, name)

    def _cwd(self, cwd: str) -> str | None:
        return cwd or getattr(getattr(self.env, "config", None), "cwd", "") or None

    def verdict(self, command: str, cwd: str = "") -> shellgate.Verdict:
        kwargs: dict[str, Any] = {"cwd": self._cwd(cwd), "home": self.home, "harness": self.harness}
        if self.config_arg is not None:
            kwargs["config"] = self.config_arg
        return shellgate.check(command, **kwargs)

    def approve(self, command: str) -> None:
        """A person approved this command: its next run may go ahead (once)."""
        self._approved.append(command)

    @staticmethod
    def _refusal(message: str) -> dict[str, Any]:
        return {"output": message, "returncode": REFUSED, "exception_info": message,
                "extra": {"shellgate": "refused"}}

    def execute(self, action: dict, cwd: str = "", **kwargs: Any) -> dict[str, Any]:
        command = action.get("command", "")
        try:
            v = self.verdict(command, cwd)
        except (shellgate.ShellgateError, TypeError) as exc:
            return self._refusal(f"shellgate could not judge this command, so it did not run: {exc}")
        if v.decision == "deny":
            return self._refusal(v.reason)
        if v.decision == "ask":
            if command not in self._approved:
                return self._refusal(f"{v.reason}. A person must approve this command and no one did, "
                                     "so it did not run")
            self._approved.remove(command)
        return self.env.execute(action, cwd, **kwargs)


class ShellgateInteractiveAgent(InteractiveAgent):
    """mini-swe-agent's interactive agent, asking its person about what shellgate asks
    about (in every mode); its environment must be a :class:`ShellgateEnvironment`."""

    def _asks(self, command: str) -> bool:
        try:
            return self.env.verdict(command).decision == "ask"
        except (shellgate.ShellgateError, TypeError):
            return False  # the environment refuses it; nothing to ask

    def _should_ask_confirmation(self, action: str) -> bool:
        return self._asks(action) or super()._should_ask_confirmation(action)

    def _ask_confirmation_or_interrupt(self, commands: list[str]) -> None:
        asked = [c for c in commands if self._asks(c)]
        if asked and self.config.mode != "confirm":
            # yolo and human mode skip the prompt; shellgate's asks still get one.
            saved, self.config.mode = self.config.mode, "confirm"
            try:
                super()._ask_confirmation_or_interrupt(commands)
            finally:
                self.config.mode = saved
        else:
            super()._ask_confirmation_or_interrupt(commands)
        # Returned without an interruption: the person confirmed.
        for c in asked:
            self.env.approve(c)
