"""A scripted model server on 127.0.0.1 for the end-to-end hook tests (stdlib only).

It answers the Anthropic Messages API (``POST /v1/messages``, streamed or not) and the
OpenAI Chat Completions API (``POST /v1/chat/completions``, streamed or not) with a fixed
script: the first request that offers the shell tool gets one tool call running
``SG_E2E_COMMAND``; once the conversation holds that tool's result, or for any request that
offers no such tool, the answer is a short final text. Every request body is appended to
``SG_E2E_LOG`` (JSON lines) so a test can see what the harness sent.

Usage: python3 model_server.py PORT_FILE  (binds an ephemeral port, writes it to PORT_FILE)
"""

import json
import os
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

COMMAND = os.environ.get("SG_E2E_COMMAND", "true")
# Tool names that mean "run a shell command", per harness.
SHELL_TOOLS = {"Bash", "terminal", "shell", "run_shell_command", "exec_command"}
# A harness whose shell tool has another name names it here (comma-separated).
SHELL_TOOLS |= {t for t in os.environ.get("SG_E2E_SHELL_TOOLS", "").split(",") if t}
LOG = os.environ.get("SG_E2E_LOG")
# Optionally call another tool instead (a file tool, for the write guard).
TOOL = os.environ.get("SG_E2E_TOOL")
TOOL_INPUT = json.loads(os.environ.get("SG_E2E_TOOL_INPUT") or "null")
_lock = threading.Lock()


def log(entry):
    if not LOG:
        return
    with _lock, open(LOG, "a", encoding="utf-8") as f:
        f.write(json.dumps(dict(entry, t=round(time.time(), 3))) + "\n")


def anthropic_tools(body):
    return [t.get("name") for t in body.get("tools") or [] if isinstance(t, dict)]


def anthropic_has_tool_result(body):
    for m in body.get("messages") or []:
        content = m.get("content")
        if isinstance(content, list):
            for block in content:
                if isinstance(block, dict) and block.get("type") == "tool_result":
                    return True
    return False


def openai_tools(body):
    names = []
    for t in body.get("tools") or []:
        if isinstance(t, dict):
            fn = t.get("function") or {}
            names.append(fn.get("name") or t.get("name"))
    return names


def openai_has_tool_result(body):
    return any(m.get("role") == "tool" for m in body.get("messages") or [] if isinstance(m, dict))


def shell_tool(names):
    for n in names:
        if n in SHELL_TOOLS:
            return n
    return None


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, fmt, *args):  # keep stderr quiet; the JSON log has everything
        pass

    def _body(self):
        n = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(n) if n else b""
        try:
            return json.loads(raw or b"{}")
        except ValueError:
            return {}

    def _send(self, code, payload, content_type="application/json"):
        data = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
        self.send_response(code)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _sse(self, events):
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Connection", "close")
        self.end_headers()
        for name, data in events:
            if name:
                self.wfile.write(f"event: {name}\n".encode())
            self.wfile.write(f"data: {data if isinstance(data, str) else json.dumps(data)}\n\n".encode())
            self.wfile.flush()
        self.close_connection = True

    def do_GET(self):
        log({"method": "GET", "path": self.path})
        if self.path.startswith("/v1/models"):
            self._send(200, {"data": [{"id": "scripted-model", "object": "model", "type": "model",
                                       "display_name": "scripted"}], "object": "list",
                             "has_more": False})
        else:
            self._send(404, {"error": {"type": "not_found", "message": self.path}})

    def do_HEAD(self):
        self._send(200, b"")

    def do_POST(self):
        body = self._body()
        log({"method": "POST", "path": self.path, "body": body})
        if self.path.startswith("/v1/messages/count_tokens"):
            self._send(200, {"input_tokens": 10})
        elif self.path.startswith("/v1/messages"):
            self.anthropic(body)
        elif self.path.startswith("/v1/chat/completions") or self.path.startswith("/chat/completions"):
            self.openai(body)
        elif ":streamGenerateContent" in self.path or ":generateContent" in self.path:
            self.gemini(body, stream=":streamGenerateContent" in self.path)
        elif self.path.startswith("/v1/responses"):
            self.openai_responses(body)
        elif ":countTokens" in self.path:
            self._send(200, {"totalTokens": 10})
        else:
            self._send(404, {"error": {"type": "not_found", "message": self.path}})

    # ---- Anthropic Messages API ----

    def anthropic(self, body):
        names = anthropic_tools(body)
        tool = TOOL if TOOL in names else shell_tool(names)
        tool_input = TOOL_INPUT if TOOL in names else {"command": COMMAND, "description": "scripted"}
        use_tool = tool is not None and not anthropic_has_tool_result(body)
        model = body.get("model", "scripted-model")
        usage = {"input_tokens": 10, "output_tokens": 5}
        if use_tool:
            block = {"type": "tool_use", "id": "toolu_e2e_1", "name": tool, "input": tool_input}
            stop = "tool_use"
        else:
            block = {"type": "text", "text": "Done."}
            stop = "end_turn"
        if not body.get("stream"):
            self._send(200, {"id": "msg_e2e", "type": "message", "role": "assistant", "model": model,
                             "content": [block], "stop_reason": stop, "stop_sequence": None,
                             "usage": usage})
            return
        start_block = dict(block, input={}) if use_tool else {"type": "text", "text": ""}
        delta = ({"type": "input_json_delta", "partial_json": json.dumps(block["input"])} if use_tool
                 else {"type": "text_delta", "text": block["text"]})
        self._sse([
            ("message_start", {"type": "message_start", "message": {
                "id": "msg_e2e", "type": "message", "role": "assistant", "model": model,
                "content": [], "stop_reason": None, "stop_sequence": None,
                "usage": {"input_tokens": 10, "output_tokens": 1}}}),
            ("content_block_start", {"type": "content_block_start", "index": 0, "content_block": start_block}),
            ("content_block_delta", {"type": "content_block_delta", "index": 0, "delta": delta}),
            ("content_block_stop", {"type": "content_block_stop", "index": 0}),
            ("message_delta", {"type": "message_delta", "delta": {"stop_reason": stop, "stop_sequence": None},
                               "usage": {"output_tokens": 5}}),
            ("message_stop", {"type": "message_stop"}),
        ])

    # ---- OpenAI Responses API (Codex) ----

    def openai_responses(self, body):
        tools = body.get("tools") or []
        names = [t.get("name") for t in tools if isinstance(t, dict)]
        answered = any(isinstance(i, dict) and i.get("type") in ("function_call_output", "custom_tool_call_output")
                       for i in body.get("input") or [])
        tool = shell_tool(names)
        rid = "resp_e2e"
        usage = {"input_tokens": 10, "input_tokens_details": None, "output_tokens": 5,
                 "output_tokens_details": None, "total_tokens": 15}
        if tool is not None and not answered:
            schema = next((t.get("parameters") or {} for t in tools if t.get("name") == tool), {})
            props = schema.get("properties") or {}
            if "cmd" in props:
                args = {"cmd": COMMAND}
            elif (props.get("command") or {}).get("type") == "array":
                args = {"command": ["bash", "-lc", COMMAND]}
            else:
                args = {"command": COMMAND}
            item = {"type": "function_call", "id": "fc_e2e_1", "call_id": "call_e2e_1", "name": tool,
                    "arguments": json.dumps(args), "status": "completed"}
        else:
            item = {"type": "message", "id": "msg_e2e_1", "role": "assistant", "status": "completed",
                    "content": [{"type": "output_text", "text": "Done.", "annotations": []}]}
        self._sse([
            ("response.created", {"type": "response.created", "response": {"id": rid, "status": "in_progress"}}),
            ("response.output_item.added", {"type": "response.output_item.added", "output_index": 0, "item": item}),
            ("response.output_item.done", {"type": "response.output_item.done", "output_index": 0, "item": item}),
            ("response.completed", {"type": "response.completed",
                                    "response": {"id": rid, "status": "completed", "output": [item], "usage": usage}}),
        ])

    # ---- Gemini API (generateContent) ----

    def gemini(self, body, stream):
        names = [d.get("name") for t in body.get("tools") or [] if isinstance(t, dict)
                 for d in t.get("functionDeclarations") or [] if isinstance(d, dict)]
        answered = any("functionResponse" in p for c in body.get("contents") or [] if isinstance(c, dict)
                       for p in c.get("parts") or [] if isinstance(p, dict))
        tool = TOOL if TOOL in names else shell_tool(names)
        if tool is not None and not answered:
            args = TOOL_INPUT if TOOL in names else {"command": COMMAND}
            part = {"functionCall": {"name": tool, "args": args}}
        else:
            part = {"text": "Done."}
        resp = {"candidates": [{"content": {"role": "model", "parts": [part]}, "finishReason": "STOP",
                                "index": 0}],
                "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15},
                "modelVersion": "scripted-model"}
        if stream:
            self._sse([(None, resp)])
        else:
            self._send(200, resp)

    # ---- OpenAI Chat Completions API ----

    def openai(self, body):
        tool = shell_tool(openai_tools(body))
        use_tool = tool is not None and not openai_has_tool_result(body)
        model = body.get("model", "scripted-model")
        args = json.dumps({"command": COMMAND})
        if use_tool:
            message = {"role": "assistant", "content": None, "tool_calls": [
                {"id": "call_e2e_1", "type": "function", "function": {"name": tool, "arguments": args}}]}
            finish = "tool_calls"
        else:
            message = {"role": "assistant", "content": "Done."}
            finish = "stop"
        usage = {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}
        if not body.get("stream"):
            self._send(200, {"id": "chatcmpl-e2e", "object": "chat.completion", "created": 0, "model": model,
                             "choices": [{"index": 0, "message": message, "finish_reason": finish}],
                             "usage": usage})
            return
        base = {"id": "chatcmpl-e2e", "object": "chat.completion.chunk", "created": 0, "model": model}
        if use_tool:
            first = {"role": "assistant", "content": None, "tool_calls": [
                {"index": 0, "id": "call_e2e_1", "type": "function", "function": {"name": tool, "arguments": args}}]}
        else:
            first = {"role": "assistant", "content": "Done."}
        self._sse([
            (None, dict(base, choices=[{"index": 0, "delta": first, "finish_reason": None}])),
            (None, dict(base, choices=[{"index": 0, "delta": {}, "finish_reason": finish}], usage=usage)),
            (None, "[DONE]"),
        ])


def main():
    port_file = sys.argv[1]
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    with open(port_file + ".tmp", "w") as f:
        f.write(str(server.server_address[1]))
    os.replace(port_file + ".tmp", port_file)
    server.serve_forever()


if __name__ == "__main__":
    main()
