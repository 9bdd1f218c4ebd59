// shellgate for Pi: every tool call is judged by `shellgate hook pi` before it runs.
// `shellgate install pi` writes this file into Pi's extensions directory with SHELLGATE set
// to the shellgate binary; `shellgate uninstall pi` removes it.
//
// Fail closed: the call runs only when shellgate answers {"decision": "allow"}, or when it
// answers "ask" and a person approves in Pi's own confirmation dialog. A missing binary, a
// crash, a non-zero exit, an unreadable answer or no answer within TIMEOUT_MS blocks the
// call, and so does an ask when nobody can answer (print and RPC modes).
import { spawn } from "node:child_process";

const SHELLGATE = "__SHELLGATE_BIN__";
// shellgate answers deny after its own 20 s deadline; this only catches a hung process.
const TIMEOUT_MS = 30000;

type Answer = { decision: string; reason?: string };

function judge(event: unknown): Promise<Answer> {
	return new Promise((resolve) => {
		const deny = (reason: string) =>
			resolve({ decision: "deny", reason: `shellgate could not judge this tool call, so it is blocked: ${reason}` });
		let child: ReturnType<typeof spawn>;
		try {
			child = spawn(SHELLGATE, ["hook", "pi"], { stdio: ["pipe", "pipe", "pipe"] });
		} catch (e) {
			return deny(`it could not be started (${e})`);
		}
		let out = "";
		let err = "";
		const timer = setTimeout(() => {
			child.kill("SIGKILL");
			deny(`no answer within ${TIMEOUT_MS} ms`);
		}, TIMEOUT_MS);
		child.stdout?.on("data", (d) => (out += d));
		child.stderr?.on("data", (d) => (err += d));
		child.on("error", (e) => {
			clearTimeout(timer);
			deny(`it could not be started (${e.message})`);
		});
		child.on("close", (code, signal) => {
			clearTimeout(timer);
			if (code !== 0) return deny(`it exited with ${code ?? signal}${err ? `: ${err.trim()}` : ""}`);
			let answer: Answer;
			try {
				answer = JSON.parse(out);
			} catch {
				return deny("its answer was not JSON");
			}
			if (!answer || typeof answer.decision !== "string") return deny("its answer had no decision");
			resolve(answer);
		});
		child.stdin?.on("error", () => {});
		child.stdin?.end(JSON.stringify(event));
	});
}

export default function (pi: any) {
	pi.on("tool_call", async (event: any, ctx: any) => {
		const answer = await judge({
			toolName: event.toolName,
			toolCallId: event.toolCallId,
			input: event.input,
			cwd: ctx.cwd,
		});
		if (answer.decision === "allow") return undefined;
		const reason = answer.reason || "shellgate blocked this tool call";
		if (answer.decision === "ask" && ctx.hasUI) {
			const ok = await ctx.ui.confirm("shellgate asks before this runs", reason);
			if (ok === true) return undefined;
			return { block: true, reason: `${reason} (a person declined it)` };
		}
		if (answer.decision === "ask") {
			return { block: true, reason: `${reason}. Nobody can approve it here, so it is blocked.` };
		}
		return { block: true, reason };
	});
}
