#!/usr/bin/env bash
# Runs the AI SDK adapter tests against ai@6 in a throwaway copy (the repo itself pins ai@7).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
tar -C "$root" --exclude=node_modules --exclude=.git -cf - . | tar -C "$work" -xf -
cd "$work"
npm ci --no-audit --no-fund --loglevel=error
npm install --no-save --no-audit --no-fund --loglevel=error 'ai@^6'
echo "ai version: $(node -p "require('ai/package.json').version")"
npx vitest run test/adapters/ai-sdk.test.ts test/adapters/native-binding.test.ts test/web/deferred-store.test.ts test/web/ui-stream.test.ts test/web/deferred-cross-process.test.ts --typecheck.enabled=false
# The docs' snippets type-check against ai@6 too (blocks marked `ts ai7-only` use v7-only options).
DOC_SNIPPETS_AI=6 npx vitest run test/docs/code-blocks.test.ts --typecheck.enabled=false
