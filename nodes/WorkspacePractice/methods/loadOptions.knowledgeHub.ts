import type { IDataObject, ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { apiList } from '../transport';

/**
 * Multi-select pick-lists for the Knowledge Hub's ID lists (folders, sources, skills of a page).
 * A multi-select cannot page, so these read up to a cap; larger workspaces use IDs by expression.
 */
const PICK_LIST_CAP = 500;

async function options(
	ctx: ILoadOptionsFunctions,
	path: string,
	toOption: (row: IDataObject) => INodePropertyOptions,
): Promise<INodePropertyOptions[]> {
	const rows = await apiList(ctx, path, {}, { returnAll: false, limit: PICK_LIST_CAP });
	return rows.map(toOption);
}

export async function getKnowledgeHubFolders(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	return await options(this, '/knowledge-hub/folders', (row) => ({
		name: row.emoji ? `${String(row.emoji)} ${String(row.name)}` : String(row.name),
		value: String(row.id),
	}));
}

export async function getKnowledgeHubSources(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	return await options(this, '/knowledge-hub/sources', (row) => ({
		name: String(row.title),
		value: String(row.id),
		description: `${String(row.source_type)}, ${String(row.status)}`,
	}));
}

export async function getKnowledgeHubSkills(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	return await options(this, '/skills', (row) => ({
		name: String(row.name),
		value: String(row.id),
		description: row.description ? String(row.description) : undefined,
	}));
}
