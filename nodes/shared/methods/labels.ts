import type { IDataObject } from 'n8n-workflow';

import type { FolderLabel } from '../contract';

/** How pickers name a Knowledge Hub folder: its emoji, if it has one, then its name. */
export function folderLabel(row: IDataObject): string {
	const { emoji, name } = row as Partial<FolderLabel>;
	return emoji ? `${String(emoji)} ${String(name)}` : String(name);
}
