export { isTempFileName, TEMP_MARKER, writeFileAtomic } from './atomic-write.js';
export { DirHandle, openDirectoryInside } from './dir-handle.js';
export { withFileLock } from './file-lock.js';
export { FsError, type FsErrorCode } from './fs-error.js';
export { decodeText, type FileBytes, readFileBytes, readTextFile, type TextFile } from './read-text.js';
export { isStaleTempFile, sweepStaleTempFiles } from './stale-temp-files.js';
export { StateTracker, sha256Hex, type VersionedState } from './state-tracker.js';
