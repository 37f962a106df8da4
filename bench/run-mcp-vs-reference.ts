import { benchMcpVsReference } from './mcp-vs-reference.js';
import { formatTable } from './measure.js';

// Just this bench: `npx tsx bench/run-mcp-vs-reference.ts [--quick]`.
const quick = process.argv.includes('--quick');
const rows = await benchMcpVsReference(
  quick ? { editSizes: [2_000], listFiles: 1_000 } : { editSizes: [10_000, 200_000], listFiles: 10_000 },
  quick ? 3 : 9,
);
console.log(formatTable(rows));
