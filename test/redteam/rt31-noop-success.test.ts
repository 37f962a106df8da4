// rt31: "applies exactly the edit the model meant, or refuses clearly" and "replacements_made / diff / message are
// true of what was written". An edit whose only difference is the line ending (CRLF → LF, LF → CRLF) is an exact
// match that the tool rewrites to the file's line ending, so it writes nothing — yet it reports success,
// "Replaced N occurrences", replacements_made N and lines_changed > 0 with an empty diff. The model is told its
// change was made; it was not, and it was not refused either.
import { afterEach, describe, expect, it } from 'vitest';
import { cleanupAll, runTool } from './rt31-harness.js';

afterEach(cleanupAll);

describe('rt31 an edit that writes nothing does not claim it replaced something', () => {
  const cases: Array<[string, Record<string, unknown>]> = [
    ['a\r\nb\r\n', { old_string: '\r\n', new_string: '\n', replace_all: true }],
    ['a\r\nb\r\n', { old_string: 'a\r\nb', new_string: 'a\nb' }],
    ['a\nb\n', { old_string: 'a\nb', new_string: 'a\r\nb' }],
  ];
  for (const [file, args] of cases) {
    it(`${JSON.stringify(file)} ${JSON.stringify(args)}: applied as asked, or refused`, async () => {
      const r = await runTool(file, 'edit_file', args);
      if (r.outcome.ok) {
        const d = r.outcome.data;
        const claim = `replacements_made=${d.replacements_made} lines_changed=${d.lines_changed} diff=${JSON.stringify(d.diff)} message=${d.message}`;
        // success must mean the file changed, and the diff must show it
        expect(r.after, claim).not.toBe(file);
        expect(d.diff, claim).not.toBe('');
      }
    });
  }
});
