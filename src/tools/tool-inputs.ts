import type { CreateDirectoryInput } from './create-directory.js';
import type { DeleteFileInput } from './delete-file.js';
import type { EditFileInput } from './edit-file.js';
import type { EditLinesInput } from './edit-lines.js';
import type { GetFileInfoInput } from './get-file-info.js';
import type { ListFilesInput } from './list-files.js';
import type { PatchFileInput } from './patch-file.js';
import type { ReadFileInput } from './read-file.js';
import type { ReadManyFilesInput } from './read-many-files.js';
import type { ReadMediaFileInput } from './read-media-file.js';
import type { TransferInput } from './transfer.js';
import type { WriteFileInput } from './write-file.js';

/** Each built-in tool's input type, inferred from its zod schema (for framework adapters' typings). */
export interface ToolInputs {
  read_file: ReadFileInput;
  write_file: WriteFileInput;
  edit_file: EditFileInput;
  patch_file: PatchFileInput;
  edit_lines: EditLinesInput;
  list_files: ListFilesInput;
  delete_file: DeleteFileInput;
  move_file: TransferInput;
  copy_file: TransferInput;
  read_many_files: ReadManyFilesInput;
  create_directory: CreateDirectoryInput;
  get_file_info: GetFileInfoInput;
  read_media_file: ReadMediaFileInput;
}
