import { expandBraces, globMatcher, MAX_ALTERNATIVES } from './glob-matcher.js';
import { toolError } from './tool-error.js';

/**
 * Validates a model-supplied glob. Patterns are relative to the listed directory;
 * anything that could name a place outside it is refused rather than rewritten.
 */
export function compileGlob(pattern: string): (relativePath: string) => boolean {
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
  if (pattern.length > MAX_PATTERN)
    problems.push(`it is longer than ${MAX_PATTERN.toLocaleString('en')} characters`);
  const negated = pattern.startsWith('!');
  // "./x" names x in the listed directory (as picomatch read it).
  const body = (negated ? pattern.slice(1) : pattern).replace(/^(\.\/)+/, '');
  const alternatives = problems.length === 0 ? expandBraces(body) : [];
  if (!alternatives || alternatives.join('').length > MAX_EXPANDED)
    problems.push(
      `its braces expand to more than ${MAX_ALTERNATIVES} alternatives or ${MAX_EXPANDED} characters`,
    );
  if (problems.length > 0 || !alternatives) {
    throw toolError(
      'invalid_argument',
      `Invalid pattern "${pattern.slice(0, 100)}${pattern.length > 100 ? '…' : ''}": ${problems.join('; ')}.`,
      {
        suggestions: ['**/*', '**/*.ts', 'src/**/*.md'],
      },
    );
  }
  const matches = globMatcher(alternatives);
  // A leading "!" lists what does not match the rest.
  return negated ? (relativePath) => !matches(relativePath) : matches;
}

/** Characters a pattern may have, and its brace alternatives together (a glob is a few words; this bounds the matcher's work per path). */
const MAX_EXPANDED = 4_096;
const MAX_PATTERN = 1_024;
