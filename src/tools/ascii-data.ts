/**
 * Whether a loaded file is all ASCII: its text is the UTF-8 decoding of its bytes, and
 * UTF-8 takes as many bytes as UTF-16 units only when every character is ASCII (any
 * other takes more bytes than units). The text is then the bytes' latin1 reading.
 */
export function isAsciiFile(file: { text: string; bytes: number }): boolean {
  return file.bytes === file.text.length;
}
