/**
 * Which tools have written each file this session: an edit_lines result reports `baseline_continuity: 'mixed'` when another kind of
 * writer touched the file, since its anchors may then come from a different baseline).
 */
export class WriterTracker {
  private readonly writers = new Map<string, Set<string>>();

  record(virtualPath: string, writer: string): void {
    const set = this.writers.get(virtualPath) ?? new Set<string>();
    set.add(writer);
    this.writers.set(virtualPath, set);
  }

  continuity(virtualPath: string, writer: string): 'clean' | 'mixed' {
    const set = this.writers.get(virtualPath);
    return !set || [...set].every((w) => w === writer) ? 'clean' : 'mixed';
  }
}
