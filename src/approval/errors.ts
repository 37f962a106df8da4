/**
 * The user quit the run (e.g. "quit" at the prompt or Ctrl-C). The one approval
 * exception: a denial or a block is an outcome the model reads, but quitting
 * ends the whole run, so it is thrown through the framework.
 */
export class ApprovalAborted extends Error {
  constructor(message = 'The user aborted the run at an approval prompt.') {
    super(message);
    this.name = 'ApprovalAborted';
  }
}
