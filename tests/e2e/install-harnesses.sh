#!/usr/bin/env bash
# Install the released harnesses the end-to-end hook tests drive, at the versions given in
# the environment (pinned in .ci/run), into DIR:
#   DIR/claude/node_modules/.bin/claude   @anthropic-ai/claude-code@$CLAUDE_CODE_VERSION (npm)
#   DIR/gemini/node_modules/.bin/gemini   @google/gemini-cli@$GEMINI_CLI_VERSION (npm)
#   DIR/codex/node_modules/.bin/codex     @openai/codex@$CODEX_VERSION (npm)
#   DIR/hermes-venv/bin/hermes            hermes-agent==$HERMES_AGENT_VERSION (PyPI)
#   DIR/opencode/node_modules/.bin/opencode  opencode-ai@$OPENCODE_VERSION (npm)
#   DIR/pi/node_modules/.bin/pi           @mariozechner/pi-coding-agent@$PI_VERSION (npm)
#   DIR/qwen/node_modules/.bin/qwen       @qwen-code/qwen-code@$QWEN_CODE_VERSION (npm)
#   DIR/amp/node_modules/.bin/amp         @sourcegraph/amp@$AMP_VERSION (npm)
# An install that is already at the pinned version is kept.
set -euo pipefail
DIR=${1:?usage: install-harnesses.sh DIR}
: "${CLAUDE_CODE_VERSION:?set CLAUDE_CODE_VERSION (pinned in .ci/run)}"
: "${GEMINI_CLI_VERSION:?set GEMINI_CLI_VERSION (pinned in .ci/run)}"
: "${CODEX_VERSION:?set CODEX_VERSION (pinned in .ci/run)}"
: "${HERMES_AGENT_VERSION:?set HERMES_AGENT_VERSION (pinned in .ci/run)}"
mkdir -p "$DIR"

have_claude=$(node -e "try{console.log(require('$DIR/claude/node_modules/@anthropic-ai/claude-code/package.json').version)}catch(e){}" 2>/dev/null || true)
if [ "$have_claude" != "$CLAUDE_CODE_VERSION" ]; then
  npm install --prefix "$DIR/claude" --no-audit --no-fund --loglevel=error \
    "@anthropic-ai/claude-code@$CLAUDE_CODE_VERSION"
fi
"$DIR/claude/node_modules/.bin/claude" --version

have_gemini=$(node -e "try{console.log(require('$DIR/gemini/node_modules/@google/gemini-cli/package.json').version)}catch(e){}" 2>/dev/null || true)
if [ "$have_gemini" != "$GEMINI_CLI_VERSION" ]; then
  npm install --prefix "$DIR/gemini" --no-audit --no-fund --loglevel=error \
    "@google/gemini-cli@$GEMINI_CLI_VERSION"
fi
echo "gemini-cli $(node -e "console.log(require('$DIR/gemini/node_modules/@google/gemini-cli/package.json').version)")"

have_codex=$(node -e "try{console.log(require('$DIR/codex/node_modules/@openai/codex/package.json').version)}catch(e){}" 2>/dev/null || true)
if [ "$have_codex" != "$CODEX_VERSION" ]; then
  npm install --prefix "$DIR/codex" --no-audit --no-fund --loglevel=error "@openai/codex@$CODEX_VERSION"
fi
"$DIR/codex/node_modules/.bin/codex" --version

if ! "$DIR/hermes-venv/bin/python" -c "import importlib.metadata as m, sys; sys.exit(m.version('hermes-agent') != '$HERMES_AGENT_VERSION')" 2>/dev/null; then
  rm -rf "$DIR/hermes-venv"
  python3 -m venv "$DIR/hermes-venv"
  "$DIR/hermes-venv/bin/pip" install --quiet --disable-pip-version-check "hermes-agent==$HERMES_AGENT_VERSION"
fi
"$DIR/hermes-venv/bin/python" -c "import importlib.metadata as m; print('hermes-agent', m.version('hermes-agent'))"

# npm harnesses of the second batch: DIR/NAME/node_modules/.bin/BIN from PACKAGE@VERSION.
npm_harness() {
  local name=$1 package=$2 version=$3 bin=$4 have
  have=$(node -e "try{console.log(require('$DIR/$name/node_modules/$package/package.json').version)}catch(e){}" 2>/dev/null || true)
  if [ "$have" != "$version" ]; then
    npm install --prefix "$DIR/$name" --no-audit --no-fund --loglevel=error "$package@$version"
  fi
  echo "$package $(node -e "console.log(require('$DIR/$name/node_modules/$package/package.json').version)")"
  test -x "$DIR/$name/node_modules/.bin/$bin"
}
: "${OPENCODE_VERSION:?set OPENCODE_VERSION (pinned in .ci/run)}"
: "${PI_VERSION:?set PI_VERSION (pinned in .ci/run)}"
: "${QWEN_CODE_VERSION:?set QWEN_CODE_VERSION (pinned in .ci/run)}"
: "${AMP_VERSION:?set AMP_VERSION (pinned in .ci/run)}"
npm_harness opencode opencode-ai "$OPENCODE_VERSION" opencode
npm_harness pi @mariozechner/pi-coding-agent "$PI_VERSION" pi
npm_harness qwen @qwen-code/qwen-code "$QWEN_CODE_VERSION" qwen
npm_harness amp @sourcegraph/amp "$AMP_VERSION" amp
