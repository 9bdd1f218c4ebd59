// shellgate for OpenCode: every tool call is judged by `shellgate hook opencode` before it
// runs. `shellgate install opencode` writes this file into OpenCode's plugin directory with
// SHELLGATE set to the shellgate binary; `shellgate uninstall opencode` removes it.
//
// Fail closed: the call runs only when shellgate answers {"decision": "allow"}. A missing
// binary, a crash, a non-zero exit, an unreadable answer or no answer within TIMEOUT_MS
// throws, which stops the tool (OpenCode reports the error to the model).
import { spawn } from "node:child_process"

const SHELLGATE = "__SHELLGATE_BIN__"
// shellgate answers deny after its own 20 s deadline; this only catches a hung process.
const TIMEOUT_MS = 30000

function judge(event) {
  return new Promise((resolve) => {
    const deny = (reason) => resolve({ decision: "deny", reason: `shellgate could not judge this tool call, so it is blocked: ${reason}` })
    let child
    try {
      child = spawn(SHELLGATE, ["hook", "opencode"], { stdio: ["pipe", "pipe", "pipe"] })
    } catch (e) {
      return deny(`it could not be started (${e})`)
    }
    let out = ""
    let err = ""
    const timer = setTimeout(() => {
      child.kill("SIGKILL")
      deny(`no answer within ${TIMEOUT_MS} ms`)
    }, TIMEOUT_MS)
    child.stdout.on("data", (d) => (out += d))
    child.stderr.on("data", (d) => (err += d))
    child.on("error", (e) => {
      clearTimeout(timer)
      deny(`it could not be started (${e.message})`)
    })
    child.on("close", (code, signal) => {
      clearTimeout(timer)
      if (code !== 0) return deny(`it exited with ${code ?? signal}${err ? `: ${err.trim()}` : ""}`)
      let answer
      try {
        answer = JSON.parse(out)
      } catch {
        return deny("its answer was not JSON")
      }
      if (!answer || typeof answer.decision !== "string") return deny("its answer had no decision")
      resolve(answer)
    })
    child.stdin.on("error", () => {})
    child.stdin.end(JSON.stringify(event))
  })
}

export const Shellgate = async ({ directory }) => ({
  "tool.execute.before": async (input, output) => {
    const answer = await judge({
      tool: input.tool,
      sessionID: input.sessionID,
      callID: input.callID,
      args: output.args,
      directory,
    })
    if (answer.decision === "allow") return
    throw new Error(answer.reason || "shellgate blocked this tool call")
  },
})
