import type { Sandbox } from '../sandbox/sandbox.js';
import { type ApplyResult, applyChangeSet } from './apply-change-set.js';
import type { StepHook } from './apply-group.js';
import { buildChangeSet, type ChangeSet } from './change-set.js';
import type { ReviewDecisions } from './decisions.js';
import { StagingOverlay } from './overlay.js';
import { stagedSandbox } from './staged-sandbox.js';

/** Anyone who reviews a change set: a terminal screen, a web page, an MCP elicitation, a test. */
export type Reviewer = (set: ChangeSet, context?: { summary?: string }) => Promise<ReviewDecisions>;

/**
 * The staged state of one toolset: the overlay its tools write to, the sandbox
 * view they resolve through, and the change set built from them.
 */
export class StagingArea {
  readonly overlay = new StagingOverlay();
  /** The sandbox as the staged tools see it. */
  readonly view: Sandbox;

  constructor(readonly sandbox: Sandbox) {
    this.view = stagedSandbox(sandbox, this.overlay);
  }

  /** Everything staged so far, as a serialisable change set. */
  changeSet(): ChangeSet {
    return buildChangeSet(this.overlay);
  }

  /** Applies the decisions; once applied (or when nothing was), the staged state is cleared. */
  async apply(
    decisions: ReviewDecisions,
    options: { hook?: StepHook; changeSet?: ChangeSet } = {},
  ): Promise<ApplyResult> {
    const set = options.changeSet ?? this.changeSet();
    const result = await applyChangeSet(this.sandbox, set, decisions, options);
    if (result.ok) this.overlay.clear();
    return result;
  }

  /** Shows the set to a reviewer and applies what they decide. */
  async review(reviewer: Reviewer): Promise<ApplyResult> {
    const set = this.changeSet();
    if (set.files.length === 0 && set.directories.length === 0) {
      this.overlay.clear();
      return applyChangeSet(this.sandbox, set, { changeSetId: set.id, files: {} });
    }
    const decisions = await reviewer(set);
    return this.apply(decisions, { changeSet: set });
  }

  discard(): void {
    this.overlay.clear();
  }
}
