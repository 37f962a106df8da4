import kleur from 'kleur';

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

/** Colour on unless NO_COLOR is set or the output is not a terminal; FORCE_COLOR wins. */
export function colorWanted(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0') return true;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  return stream.isTTY === true;
}

const plain = (s: string) => s;

/** kleur's own switch is global; each Style decides for itself and only calls kleur when colour is on. */
export function createStyle(enabled: boolean): Style {
  if (enabled) kleur.enabled = true;
  const pick = (fn: (s: string) => string) => (enabled ? fn : plain);
  return {
    enabled,
    red: pick((s) => kleur.red(s)),
    green: pick((s) => kleur.green(s)),
    yellow: pick((s) => kleur.yellow(s)),
    cyan: pick((s) => kleur.cyan(s)),
    dim: pick((s) => kleur.dim(s)),
    bold: pick((s) => kleur.bold(s)),
    inverse: pick((s) => kleur.inverse(s)),
    delWord: enabled ? (s) => kleur.bgRed().white(s) : (s) => `[-${s}-]`,
    addWord: enabled ? (s) => kleur.bgGreen().black(s) : (s) => `{+${s}+}`,
  };
}

/** Visible length of a string that may contain ANSI colour codes. */
export function visibleLength(s: string): number {
  return [...s.replace(/\u001b\[[0-9;]*m/g, '')].length;
}
