/** The virtual paths a call names, for toolsets that cannot resolve them to files. */
export function pathKeys(args: unknown): string[] {
  if (args === null || typeof args !== 'object') return [];
  const a = args as Record<string, unknown>;
  const keys = [a.path, a.file_path, a.source, a.destination].filter(
    (v): v is string => typeof v === 'string',
  );
  return [...new Set(keys.map((k) => k.trim()))].sort();
}
