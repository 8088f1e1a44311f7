import type { IDataObject, INodeProperties } from 'n8n-workflow';

import type { InputValidator } from '../../../shared/validate';

/** The three ID lists a page carries; on Create they set the list, on Update they replace it. */
export const PAGE_LIST_FIELDS = [
	{ name: 'folder_ids', label: 'Folders', method: 'getKnowledgeHubFolders', noun: 'folders' },
	{
		name: 'source_ids',
		label: 'Sources',
		method: 'getKnowledgeHubSources',
		noun: 'attached sources',
	},
	{ name: 'skill_ids', label: 'Skills', method: 'getSkills', noun: 'linked skills' },
] as const;

// n8n's standard sentence for dynamic multi-selects; an expression may give a list or comma-separated UUIDs.
const EXPRESSION_HINT =
	'Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>';

/** Multi-selects for the ID lists; `replaces` words the description for Update. */
export function pageListFields(replaces: boolean): INodeProperties[] {
	return PAGE_LIST_FIELDS.map((field) => ({
		displayName: `${field.label.slice(0, -1)} Names or IDs`,
		name: field.name,
		type: 'multiOptions',
		typeOptions: { loadOptionsMethod: field.method },
		default: [],
		description: replaces
			? `REPLACES the page's current ${field.noun} with exactly this list: anything not listed is removed, and an empty list removes them all. Leave the field out to keep the current ${field.noun}. ${EXPRESSION_HINT}.`
			: `The page's ${field.noun}. ${EXPRESSION_HINT}.`,
	}));
}

export const pageStatusOptions = [
	{ name: 'Draft', value: 'draft', description: 'Save without publishing' },
	{ name: 'Published', value: 'published', description: 'Publish the new version now' },
];

/**
 * Copies the ID lists the user added to the form into the body, each checked to be UUIDs. A list
 * that is present but empty is sent as [] (on Update that clears it); an absent one is not sent.
 */
export function addPageLists(body: IDataObject, values: IDataObject, check: InputValidator): void {
	for (const field of PAGE_LIST_FIELDS) {
		if (values[field.name] === undefined) continue;
		body[field.name] = check.uuidList(field.label, values[field.name]);
	}
}
