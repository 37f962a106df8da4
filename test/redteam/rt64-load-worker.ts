// rt64: one write_file dry-run payload diff of a casePair, in its own process; prints its counts as JSON.
import { casePair } from './rt64-case.js';
import { cleanupRt64, writePayload } from './rt64-helpers.js';

const [kind, edit, n, seed] = process.argv.slice(2);
const { before, after } = casePair(JSON.parse(kind!), JSON.parse(edit!), Number(n), Number(seed));
const c0 = process.cpuUsage();
const p = await writePayload(before, after);
const c = process.cpuUsage(c0);
cleanupRt64();
console.log(
  JSON.stringify({
    added: p.added,
    removed: p.removed,
    coarse: p.coarse,
    wallMs: Math.round(p.ms),
    cpuMs: Math.round((c.user + c.system) / 1000),
  }),
);
