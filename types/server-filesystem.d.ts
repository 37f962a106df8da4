// The MCP reference server ships no types for its internal lib; the bench uses one function.
declare module '@modelcontextprotocol/server-filesystem/dist/lib.js' {
  export function applyFileEdits(
    filePath: string,
    edits: Array<{ oldText: string; newText: string }>,
    dryRun?: boolean,
  ): Promise<string>;
}
