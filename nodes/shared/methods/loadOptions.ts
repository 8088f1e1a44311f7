import type { IDataObject, INodePropertyOptions } from 'n8n-workflow';

import { pickList } from './pickList';

const named = (row: IDataObject): INodePropertyOptions => ({
	name: String(row.name),
	value: String(row.id),
	description: row.description ? String(row.description) : undefined,
});

export const getGroups = pickList('/workspace/groups', (row) => ({
	name: String(row.name),
	value: String(row.id),
}));

export const getCollections = pickList('/collections', named);

export const getSkills = pickList('/skills', named);

export const getScenarios = pickList('/scenarios', named);
