import { ApprovalAborted } from './errors.js';

/**
 * Quitting at one prompt ends the run, so requests already waiting then must
 * be aborted too, never shown. Each request takes a ticket when it arrives;
 * before it is shown it checks that nobody quit since. Shared by the approval
 * layer and the terminal approver, which both queue prompts.
 */
export class AbortEpoch {
  private aborts = 0;

  /** Taken when a request arrives (before it waits in a queue). */
  ticket(): number {
    return this.aborts;
  }

  /** Before showing a request: throws ApprovalAborted if the user quit since its ticket. */
  throwIfAbortedSince(ticket: number): void {
    if (this.aborts !== ticket)
      throw new ApprovalAborted('The run was aborted at an earlier approval prompt.');
  }

  /** The user quit: every request holding an earlier ticket is aborted. */
  aborted(): void {
    this.aborts++;
  }

  /** Counts a quit when `error` is one (ApprovalAborted); other errors pass unnoticed. */
  note(error: unknown): void {
    if (error instanceof ApprovalAborted) this.aborted();
  }
}
