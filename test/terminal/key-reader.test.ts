import { describe, expect, it } from 'vitest';
import { InputDecoder } from '../../src/terminal/input-decoder.js';
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

describe('InputDecoder', () => {
  it('reads a bracketed paste as one event, even split across chunks, and never as keys', () => {
    const d = new InputDecoder();
    const events = [
      ...d.push('n\u001b[20'),
      ...d.push('0~first\nyes\u001b'),
      ...d.push('[201'),
      ...d.push('~y'),
    ];
    expect(events).toEqual(['n', { paste: 'first\nyes' }, 'y']);
  });

  it('keeps escape sequences and text around a paste as keys', () => {
    expect(new InputDecoder().push('\u001b[A\u001b[200~\u001b[B\u0003\u001b[201~\r')).toEqual([
      'up',
      { paste: '\u001b[B\u0003' },
      'enter',
    ]);
  });
});
