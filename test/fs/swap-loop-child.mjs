// Child process for the race test: swaps a directory for a symlink to outside and back, holding
// each state briefly so the parent's calls land in both, and records its swap count in a file.
// The parent may legitimately recreate `dir` (create-parents) while it is parked: remove it and go on.
import fs from 'node:fs';
import path from 'node:path';

const [allowed, outside, countFile] = process.argv.slice(2);
const dir = path.join(allowed, 'dir');
const parked = path.join(allowed, 'dir.parked');
const hold = (ms) => {
  const end = performance.now() + ms;
  while (performance.now() < end) {}
};
const clear = (p) => fs.rmSync(p, { recursive: true, force: true }); // removes a symlink itself, never its target
let swaps = 0;
// Never outlive the test: exit when the parent goes away, and after two minutes regardless.
process.on('disconnect', () => process.exit(0));
const deadline = Date.now() + 120_000;
process.send?.('ready');
for (;;) {
  try {
    if (fs.existsSync(parked)) clear(dir);
    else fs.renameSync(dir, parked);
    try {
      fs.symlinkSync(outside, dir);
    } catch {
      clear(dir);
      fs.symlinkSync(outside, dir);
    }
    hold(0.2);
    clear(dir);
    try {
      fs.renameSync(parked, dir);
    } catch {
      clear(dir);
      fs.renameSync(parked, dir);
    }
    hold(0.2);
    swaps++;
  } catch {}
  if (Date.now() > deadline) process.exit(0);
  if (swaps % 100 === 0) {
    fs.writeFileSync(countFile, String(swaps));
    await new Promise((r) => setImmediate(r));
  }
}
