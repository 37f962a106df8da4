import type {
  ApprovalDecision,
  ApprovalMemoryView,
  ApprovalRequest,
  RememberedApproval,
  RememberScopeName,
} from '../contract/approval-types.js';
import type { FileTarget } from '../contract/file-target.js';
import type { ApprovalPayload } from '../contract/payloads.js';
import { argumentsDigestOf } from './call-arguments.js';

const SCOPES: readonly RememberScopeName[] = ['call', 'file', 'mount', 'tool'];

/** Move and copy touch two files: a file or mount scope must name both, never just the source. */
function destinationOf(payload: ApprovalPayload): { path?: string; mount?: string } {
  return payload.type === 'move' || payload.type === 'copy'
    ? { path: payload.destination, mount: payload.destinationMount }
    : {};
}

/**
 * The files a call really touches: where each name leads (real path, links) and
 * the file's slot (its directory's identity and its name). A link re-pointed, or
 * a directory on the way swapped, is another file: a remembered scope no longer
 * covers it. The slot outlives atomic rewrites (a new inode each time).
 */
function filesOf(request: ApprovalRequest): string {
  const t = request.targets;
  if (!t) return '';
  const one = (f: FileTarget | undefined) =>
    f ? `${f.path}\u0001${f.via.join('\u0001')}\u0001${f.slot}` : '';
  return `${one(t.path)}\0${one(t.destination)}`;
}

/** The mounts a call's files really live in (through links). */
function mountsOf(request: ApprovalRequest): string {
  const t = request.targets;
  return t ? `${t.path?.mount ?? ''}\0${t.destination?.mount ?? ''}` : '';
}

/**
 * Every scope is keyed by the sandbox as well: a memory shared by two toolsets
 * must not let "/src" (or "every write_file") approved in one sandbox cover
 * another sandbox's "/src".
 */
function keyFor(request: ApprovalRequest, scope: RememberScopeName): string | undefined {
  const { toolName, payload } = request;
  const dest = destinationOf(payload);
  const sandbox = request.sandboxId ?? '';
  switch (scope) {
    case 'call':
      return `call\0${sandbox}\0${toolName}\0${argumentsDigestOf(request.args)}\0${filesOf(request)}`;
    case 'file':
      return payload.path
        ? `file\0${sandbox}\0${toolName}\0${payload.path}\0${dest.path ?? ''}\0${filesOf(request)}`
        : undefined;
    case 'mount':
      return payload.mount
        ? `mount\0${sandbox}\0${toolName}\0${payload.mount}\0${dest.mount ?? ''}\0${mountsOf(request)}`
        : undefined;
    case 'tool':
      return `tool\0${sandbox}\0${toolName}`;
  }
}

function labelFor(request: ApprovalRequest, scope: RememberScopeName): string {
  const { toolName, payload } = request;
  const dest = destinationOf(payload);
  switch (scope) {
    case 'call':
      return `this exact ${toolName} call (${request.description})`;
    case 'file':
      return `${toolName} on ${payload.path}${dest.path ? ` → ${dest.path}` : ''}`;
    case 'mount':
      return `${toolName} anywhere under ${payload.mount}${dest.mount && dest.mount !== payload.mount ? ` → ${dest.mount}` : ''}`;
    case 'tool':
      return `every ${toolName} call`;
  }
}

/**
 * Session memory of approval decisions, by scope: the exact call (tool +
 * canonical arguments), a file, a mount, or a whole tool. A scope is never
 * widened: what is remembered is exactly what the user picked. Blocked calls
 * never reach the memory (the approval layer decides `blocked` first).
 */
export class ApprovalMemory implements ApprovalMemoryView {
  private readonly entries = new Map<string, RememberedApproval>();
  private nextId = 1;

  /** Remembers a decision for a request at a scope; returns the entry, or undefined if the scope does not apply. */
  remember(
    request: ApprovalRequest,
    scope: RememberScopeName,
    approved = true,
    note?: string,
  ): RememberedApproval | undefined {
    const key = keyFor(request, scope);
    if (key === undefined) return undefined;
    const entry: RememberedApproval = {
      id: String(this.nextId++),
      scope,
      toolName: request.toolName,
      label: labelFor(request, scope),
      approved,
      ...(!approved && note ? { note } : {}),
      createdAt: new Date().toISOString(),
    };
    this.entries.set(key, entry);
    return entry;
  }

  /** The narrowest remembered decision covering this request. */
  lookup(request: ApprovalRequest): RememberedApproval | undefined {
    const remembered = new Set([...this.entries.values()].map((e) => e.scope));
    for (const scope of SCOPES) {
      // A scope nothing is remembered at is not keyed: a call's key hashes its arguments.
      if (!remembered.has(scope)) continue;
      const key = keyFor(request, scope);
      const hit = key === undefined ? undefined : this.entries.get(key);
      if (hit) return hit;
    }
    return undefined;
  }

  list(): RememberedApproval[] {
    return [...this.entries.values()].sort((a, b) => Number(a.id) - Number(b.id));
  }

  revoke(id: string): boolean {
    for (const [key, entry] of this.entries) {
      if (entry.id === id) return this.entries.delete(key);
    }
    return false;
  }

  clear(): void {
    this.entries.clear();
  }
}

/** The decision a remembered entry stands for; a remembered denial repeats the user's note. */
export function rememberedDecision(hit: RememberedApproval): ApprovalDecision {
  if (hit.approved) return { approved: true };
  return { approved: false, note: `Denied earlier (${hit.label})${hit.note ? `: ${hit.note}` : '.'}` };
}
