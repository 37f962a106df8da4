export {
  type Mount,
  type MountInput,
  type MountOptions,
  MountSchema,
  type SandboxConfigInput,
  SandboxConfigSchema,
} from './config.js';
export * from './errors.js';
export {
  type AccessKind,
  type DeriveOptions,
  type EntryKind,
  type ResolvedPath,
  Sandbox,
  type SandboxOptions,
} from './sandbox.js';
export { linkSha256, linkTarget, OUTSIDE_THE_SANDBOX, type ResolvedLink, resolveLink } from './symlink.js';
export { type FileTarget, fileTargetOf, type ResolvedTarget, targetChange } from './target.js';
