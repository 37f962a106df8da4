// Child process for the kill -9 test: rewrites one file forever, alternating two large contents.
import { writeFileAtomic } from '../../src/fs/atomic-write.js';

const [file, root] = process.argv.slice(2) as [string, string];
const a = 'A'.repeat(4 * 1024 * 1024);
const b = 'B'.repeat(4 * 1024 * 1024);
let flip = false;
process.on('disconnect', () => process.exit(0));
process.send?.('ready');
for (;;) {
  flip = !flip;
  await writeFileAtomic(file, root, flip ? a : b, { displayPath: '/big.txt' });
}
