"""Drive `shellgate exec` in a real pseudo-terminal: wait for the prompt, type an answer
(or nothing), and report the exit status and everything the terminal showed, as JSON.

usage: pty_drive.py ANSWER COMMAND... (ANSWER is the text typed, or NONE to type nothing)
The shellgate binary is $SHELLGATE_BIN; the environment is passed through.
"""
import json
import os
import pty
import select
import sys
import time

answer, argv = sys.argv[1], sys.argv[2:]
exe = os.environ["SHELLGATE_BIN"]
pid, fd = pty.fork()
if pid == 0:
    os.execv(exe, [exe] + argv)

out = b""
saw_prompt = False


def pump(until, limit):
    global out
    deadline = time.time() + limit
    while time.time() < deadline:
        if until is not None and until in out:
            return True
        r, _, _ = select.select([fd], [], [], 0.2)
        if not r:
            continue
        try:
            chunk = os.read(fd, 4096)
        except OSError:  # EIO: the child closed the terminal
            return False
        if not chunk:
            return False
        out += chunk
    return False


saw_prompt = pump(b"[d]eny", 60)
if saw_prompt and answer != "NONE":
    os.write(fd, answer.encode())
pump(None, 60)
_, status = os.waitpid(pid, 0)
print(json.dumps({
    "status": os.waitstatus_to_exitcode(status),
    "saw_prompt": saw_prompt,
    "output": out.decode("utf-8", "replace"),
}))
