import { folderLabel } from './labels';
import { pickList } from './pickList';

export const getKnowledgeHubFolders = pickList('/knowledge-hub/folders', (row) => ({
	name: folderLabel(row),
	value: String(row.id),
}));

export const getKnowledgeHubSources = pickList('/knowledge-hub/sources', (row) => ({
	name: String(row.title),
	value: String(row.id),
	description: `${String(row.source_type)}, ${String(row.status)}`,
}));
