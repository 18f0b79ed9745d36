#!/usr/bin/env bash
# A command-line agent in a few lines of shell (needs curl and jq). The harness runs it once per item:
#
#   pytest evals/sample --agent-cmd "bash examples/agent.sh" --model openai/gpt-4.1-mini
#
# The task arrives as JSON on stdin; OPENAI_BASE_URL and OPENAI_API_KEY point at the harness's gateway
# (the key is this item's own, not a provider's), so the call below is cached, metered and replayable.
# The answer goes to stdout; anything for people goes to stderr.
set -euo pipefail
task=$(cat)
request=$(jq -c '{model: "any", temperature: 0, messages: ([if .system then {role: "system", content: .system}
                  else empty end] + [{role: "user", content: .prompt}])}' <<<"$task")
echo "asking the gateway about $(jq -r .item <<<"$task")" >&2
curl -sS --fail-with-body "$OPENAI_BASE_URL/chat/completions" -H "Authorization: Bearer $OPENAI_API_KEY" \
    -H "Content-Type: application/json" -d "$request" | jq -r '.choices[0].message.content'
