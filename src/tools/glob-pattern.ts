import { expandBraces, MAX_ALTERNATIVES } from './glob-braces.js';
import { type GlobMatcher, globMatcher, namesSomething } from './glob-matcher.js';
import { toolError } from './tool-error.js';

/**
 * Validates a model-supplied glob. Patterns are relative to the listed directory;
 * anything that could name a place outside it is refused rather than rewritten.
 */
export function compileGlob(pattern: string): GlobMatcher {
  const problems: string[] = [];
  if (pattern.trim() === '') problems.push('it is empty');
  if (pattern.includes('\0')) problems.push('it contains a NUL byte');
  if (pattern.startsWith('/')) problems.push('it starts with "/" (patterns are relative to `path`)');
  if (pattern.startsWith('~')) problems.push('it starts with "~" (home directories are not reachable)');
  if (/^[a-zA-Z]:/.test(pattern)) problems.push('it has a drive letter');
  if (pattern.includes('\\')) problems.push('it contains a backslash (use "/")');
  if (pattern.split('/').includes('..'))
    problems.push('it contains ".." (set `path` to the directory instead)');
  // What the matcher does not take (it takes * ? [..] {a,b} **, in time bounded by the sizes).
  if (/[@!+*?]\(/.test(pattern)) problems.push('extended globs such as @(a|b) or !(a) are not supported');
  if (pattern.includes('[[:'))
    problems.push('POSIX classes such as [[:alpha:]] are not supported (use [a-zA-Z])');
  if (/\{[^{},]*\.\.[^{},]*\}/.test(pattern))
    problems.push('brace ranges such as {1..3} are not supported (list them: {1,2,3})');
  if (characters(pattern) > MAX_PATTERN)
    problems.push(`it is longer than ${MAX_PATTERN.toLocaleString('en')} characters`);
  const negated = pattern.startsWith('!');
  // "./x" names x in the listed directory (as picomatch read it).
  const body = (negated ? pattern.slice(1) : pattern).replace(/^(\.\/)+/, '');
  const alternatives = problems.length === 0 ? expandBraces(body) : [];
  if (!alternatives || characters(alternatives.join('')) > MAX_EXPANDED)
    problems.push(
      `its braces expand to more than ${MAX_ALTERNATIVES} alternatives or ${MAX_EXPANDED} characters`,
    );
  else if (problems.length === 0 && !namesSomething(alternatives))
    problems.push('it names only the listed directory itself (to list its entries use "*")');
  if (problems.length > 0 || !alternatives) {
    const shown = pattern.slice(0, 100).replace(/[\uD800-\uDBFF]$/, ''); // not half a character
    throw toolError(
      'invalid_argument',
      `Invalid pattern "${shown}${pattern.length > 100 ? '…' : ''}": ${problems.join('; ')}.`,
      {
        suggestions: ['**/*', '**/*.ts', 'src/**/*.md'],
      },
    );
  }
  const matches = globMatcher(alternatives);
  if (!negated) return matches;
  // A leading "!" lists what does not match the rest: any directory may hold such paths.
  const not = (relativePath: string, isDirectory = false) => !matches(relativePath, isDirectory);
  return Object.assign(not, { mayMatchBelow: () => true });
}

/** Characters as a person counts them: code points ("😀" is one), not UTF-16 code units. */
function characters(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    // A high surrogate followed by a low one is one character.
    if (c >= 0xd800 && c < 0xdc00 && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d < 0xe000) {
        n--;
        i++;
      }
    }
  }
  return n;
}

/** Characters a pattern may have, and its brace alternatives together (a glob is a few words; this bounds the matcher's work per path). */
const MAX_EXPANDED = 4_096;
const MAX_PATTERN = 1_024;
