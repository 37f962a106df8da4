// Pager first screen alone: `npx tsx bench/pager-first-screen.ts` (the same rows `npm run bench` prints).
import { formatTable } from './measure.js';
import { benchPagerFirstScreen } from './other-benches.js';

console.log(formatTable(await benchPagerFirstScreen(100_000, [1 << 20, 10 << 20], 9)));
