import kleur from 'kleur';
import { displayWidth } from '../text/display-width.js';

export interface Style {
  enabled: boolean;
  red(s: string): string;
  green(s: string): string;
  yellow(s: string): string;
  cyan(s: string): string;
  dim(s: string): string;
  bold(s: string): string;
  inverse(s: string): string;
  /** Word-level highlight inside a removed / added line. */
  delWord(s: string): string;
  addWord(s: string): string;
}

/**
 * Colour on unless NO_COLOR is set or the output is not a terminal. FORCE_COLOR
 * wins either way: FORCE_COLOR=1 (or 2, 3, true) forces it on, FORCE_COLOR=0 (or false) off.
 */
export function colorWanted(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): boolean {
  const force = env.FORCE_COLOR;
  if (force !== undefined) {
    if (force === '0' || force.toLowerCase() === 'false') return false;
    return true;
  }
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  return stream.isTTY === true;
}

const plain = (s: string) => s;

/** Calls kleur with colour on for this call only: kleur's switch is global and belongs to the host app. */
function colored(fn: (s: string) => string): (s: string) => string {
  return (s) => {
    const before = kleur.enabled;
    kleur.enabled = true;
    try {
      return fn(s);
    } finally {
      kleur.enabled = before;
    }
  };
}

export function createStyle(enabled: boolean): Style {
  const pick = (fn: (s: string) => string) => (enabled ? colored(fn) : plain);
  return {
    enabled,
    red: pick((s) => kleur.red(s)),
    green: pick((s) => kleur.green(s)),
    yellow: pick((s) => kleur.yellow(s)),
    cyan: pick((s) => kleur.cyan(s)),
    dim: pick((s) => kleur.dim(s)),
    bold: pick((s) => kleur.bold(s)),
    inverse: pick((s) => kleur.inverse(s)),
    delWord: enabled ? colored((s) => kleur.bgRed().white(s)) : (s) => `[-${s}-]`,
    addWord: enabled ? colored((s) => kleur.bgGreen().black(s)) : (s) => `{+${s}+}`,
  };
}

/** Removes the colour codes this module produces. */
export function stripAnsi(s: string): string {
  return s.replace(/\u001b\[[0-9;]*m/g, '');
}

/** Visible length of a string that may contain ANSI colour codes. */
export function visibleLength(s: string): number {
  return displayWidth(stripAnsi(s));
}
