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

describe('KeyReader without bracketed paste (TERM=dumb)', () => {
  async function firstKey(chunks: string[]): Promise<string> {
    const { PassThrough } = await import('node:stream');
    const { KeyReader } = await import('../../src/terminal/key-reader.js');
    const input = new PassThrough();
    const clock = { t: 0, now: () => clock.t };
    const reader = new KeyReader(input, { clock, bracketedPaste: false, armDelayMs: 10 });
    reader.open();
    clock.t = 100;
    for (const c of chunks) input.write(c);
    input.end();
    try {
      return await reader.next();
    } finally {
      reader.close();
    }
  }

  it('reads a burst of several keys in one chunk as a paste: it decides nothing', async () => {
    expect(await firstKey(['yes, go ahead\r'])).toBe('ctrl-c'); // input ended, nothing decided
    expect(await firstKey(['y\r'])).toBe('ctrl-c');
  });

  it('still reads single key presses and escape sequences, one per chunk', async () => {
    expect(await firstKey(['y'])).toBe('y');
    expect(await firstKey(['\u001b[A'])).toBe('up');
    expect(await firstKey(['\r'])).toBe('enter');
  });

  it('honours a Ctrl-C inside a burst', async () => {
    expect(await firstKey(['ab\u0003'])).toBe('ctrl-c');
  });
});
