import { describe, expect, it } from 'vitest';
import { parseKeys } from '../../src/terminal/key-reader.js';

describe('parseKeys', () => {
  it('names arrows, paging keys, Enter, Backspace, Esc and Ctrl-C', () => {
    expect(parseKeys('\u001b[A\u001b[B\u001bOC\u001b[D\u001b[5~\u001b[6~\r\u007f\u0003y')).toEqual([
      'up',
      'down',
      'right',
      'left',
      'pageup',
      'pagedown',
      'enter',
      'backspace',
      'ctrl-c',
      'y',
    ]);
    expect(parseKeys('\u001b')).toEqual(['escape']);
  });

  it('never reads an unknown escape sequence as Esc (deny) followed by typed text', () => {
    // F1, F5, Ctrl+Right, Delete, Alt+y
    expect(parseKeys('\u001bOP\u001b[15~\u001b[1;5C\u001b[3~\u001by')).toEqual([
      'unknown',
      'unknown',
      'unknown',
      'delete',
      'unknown',
    ]);
  });

  it('keeps characters outside the BMP whole', () => {
    expect(parseKeys('a😀b')).toEqual(['a', '😀', 'b']);
  });
});
