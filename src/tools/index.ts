export { ChangeJournal, type ChangeRecord } from './change-journal.js';
export { copyFile } from './copy-file.js';
export {
  type CreateDirectoryInput,
  type CreateDirectoryOutput,
  createDirectory,
} from './create-directory.js';
export { deleteFile } from './delete-file.js';
export { DRY_RUN_FIELD, type DryRunOutput, WRITING_TOOLS } from './dry-run.js';
export { type EditFileInput, type EditFileOutput, editFile } from './edit-file.js';
export { type EditLinesInput, type EditLinesOutput, editLines } from './edit-lines.js';
export { EMPTY_SHA256, type LatestFileState } from './file-state.js';
export {
  BUILTIN_TOOLS,
  FileSystemToolset,
  type FileSystemToolsetOptions,
} from './filesystem-toolset.js';
export { type GetFileInfoInput, type GetFileInfoOutput, getFileInfo } from './get-file-info.js';
export { DEFAULT_LIMITS, type ToolLimits } from './limits.js';
export { type ListFilesInput, type ListFilesOutput, listFiles } from './list-files.js';
export { moveFile } from './move-file.js';
export { type PatchFileInput, type PatchFileOutput, patchFile } from './patch-file.js';
export { type ReadFileInput, type ReadFileOutput, readFile } from './read-file.js';
export {
  type ReadManyFileEntry,
  type ReadManyFilesInput,
  type ReadManyFilesOutput,
  readManyFiles,
} from './read-many-files.js';
export {
  MEDIA_TYPES,
  type ReadMediaFileInput,
  type ReadMediaFileOutput,
  readMediaFile,
} from './read-media-file.js';
export { ToolError, toErrorInfo, toolError } from './tool-error.js';
export type { ToolInputs } from './tool-inputs.js';
export type { TransferInput, TransferOutput } from './transfer.js';
export * from './types.js';
export type { UndoOutput } from './undo.js';
export { type WriteFileInput, type WriteFileOutput, writeFile } from './write-file.js';
