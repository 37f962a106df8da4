import { isVirtualPrefix } from './virtual-path.js';

/**
 * The permissions a derived sandbox adds on top of its mounts. `undefined` lists
 * mean "whatever the parent allows"; a list restricts to those virtual prefixes.
 */
export interface Grants {
  read: readonly string[] | undefined;
  write: readonly string[] | undefined;
  readonly: boolean;
}

export const UNRESTRICTED: Grants = { read: undefined, write: undefined, readonly: false };

export function grantAllows(list: readonly string[] | undefined, virtualPath: string): boolean {
  return list === undefined || list.some((prefix) => isVirtualPrefix(prefix, virtualPath));
}

/** True when some granted prefix lies at or below `virtualPath` (for listing parents of grants). */
export function grantReachesBelow(list: readonly string[] | undefined, virtualPath: string): boolean {
  return list === undefined || list.some((prefix) => isVirtualPrefix(virtualPath, prefix));
}
