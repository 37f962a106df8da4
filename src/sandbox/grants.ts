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

/**
 * The grants of a derived sandbox (the caller has checked that the parent holds
 * every one). Without `inherit` the child has exactly the listed prefixes
 * (writing implies reading); with `inherit` it keeps the parent's access, and a
 * list that is given narrows that kind of access.
 */
export function derivedGrants(
  options: { readonly?: boolean; inherit?: boolean; allowRead?: unknown; allowWrite?: unknown },
  allowRead: readonly string[],
  allowWrite: readonly string[],
): Grants {
  const readonly = options.readonly === true;
  const keepRead = options.inherit === true && options.allowRead === undefined;
  const keepWrite = options.inherit === true && options.allowWrite === undefined;
  return {
    read: keepRead ? undefined : [...allowRead, ...allowWrite],
    write: readonly ? [] : keepWrite ? undefined : [...allowWrite],
    readonly,
  };
}
