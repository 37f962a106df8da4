import picomatch from 'picomatch';
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
  if (problems.length > 0) {
    throw toolError(
      'invalid_argument',
      `Invalid pattern "${pattern.slice(0, 100)}": ${problems.join('; ')}.`,
      {
        suggestions: ['**/*', '**/*.ts', 'src/**/*.md'],
      },
    );
  }
  try {
    return picomatch(pattern, { dot: true });
  } catch (error) {
    // picomatch refuses what it cannot compile (a pattern over 65,536 characters, …).
    throw toolError(
      'invalid_argument',
      `Invalid pattern "${pattern.slice(0, 100)}${pattern.length > 100 ? '…' : ''}": ${(error as Error).message}.`,
      { suggestions: ['**/*', '**/*.ts', 'src/**/*.md'] },
    );
  }
}
