#!/usr/bin/env node
// The published command: runs the compiled CLI (npm run build produces dist/).
import '../dist/src/mcp/cli/bin.js';
