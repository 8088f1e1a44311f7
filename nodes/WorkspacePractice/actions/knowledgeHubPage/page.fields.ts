import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { binaryInputField, readTextFile } from '../../../shared/binary/textFile';
import { validator, type InputValidator } from '../../../shared/validate';

/** The ID lists a page carries, alphabetical as the form lists them. */
export const PAGE_LIST_FIELDS = [
	{ name: 'folder_ids', label: 'Folders', method: 'getKnowledgeHubFolders', noun: 'folders' },
	{ name: 'skill_ids', label: 'Skills', method: 'getSkills', noun: 'linked skills' },
	{
		name: 'source_ids',
		label: 'Sources',
		method: 'getKnowledgeHubSources',
		noun: 'attached sources',
	},
] as const;

// n8n's standard sentence for dynamic multi-selects; an expression may give a list or comma-separated UUIDs.
const EXPRESSION_HINT =
	'Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>';

/** Multi-selects for the ID lists; `replaces` words the description for Update. */
export function pageListFields(replaces: boolean): INodeProperties[] {
	return PAGE_LIST_FIELDS.map((field) => ({
		// n8n's lint wants "Names or IDs" at the end; where the list replaces the page's, it says so first.
		displayName: `${replaces ? 'Replace With ' : ''}${field.label.slice(0, -1)} Names or IDs`,
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

export const pageVisibilityOptions = [
	{ name: 'Private', value: 'private', description: 'Only the owner sees it' },
	{ name: 'Workspace', value: 'workspace', description: 'Everyone in the workspace sees it' },
];

/** The ID lists added to the form, as UUIDs; an empty one is sent as [] (Update clears it). */
export function addPageLists(body: IDataObject, values: IDataObject, check: InputValidator): void {
	for (const field of PAGE_LIST_FIELDS) {
		if (values[field.name] === undefined) continue;
		body[field.name] = check.uuidList(field.label, values[field.name]);
	}
}

/** The Markdown body as typed (with Content From = Text). */
export const contentField = (description: string): INodeProperties => ({
	displayName: 'Content',
	name: 'content',
	type: 'string',
	typeOptions: { rows: 6 },
	default: '',
	description,
});

/** Where a page's Markdown comes from: a text field, or a file in the input item. */
export function contentFromFields(textField?: INodeProperties): INodeProperties[] {
	return [
		{
			displayName: 'Content From',
			name: 'contentFrom',
			type: 'options',
			options: [
				{
					name: 'Binary File',
					value: 'binary',
					description:
						'A Markdown (.md) or plain-text (.txt) file in a binary property of the input item, e.g. from Read Files from Disk or an HTTP Request',
				},
				{
					name: 'Text',
					value: 'text',
					description: 'Markdown typed here or given by an expression',
				},
			],
			default: 'text',
			description: 'Whether the page content is text or a file of the input item',
		},
		...(textField ? [{ ...textField, displayOptions: { show: { contentFrom: ['text'] } } }] : []),
		binaryInputField({ displayOptions: { show: { contentFrom: ['binary'] } } }),
	];
}

/** The file's text with Content From = Binary File (then `typed` is refused), else `typed`. */
export async function readPageContent(
	ctx: IExecuteFunctions,
	itemIndex: number,
	typed: unknown,
	emptyRefusal?: string,
): Promise<string | undefined> {
	const check = validator(ctx, itemIndex);
	const from = ctx.getNodeParameter('contentFrom', itemIndex, 'text') as string;
	if (from !== 'binary') return typed === undefined ? undefined : check.text('Content', typed);
	if (typed !== undefined && check.text('Content', typed) !== '')
		check.fail(
			'Content',
			'leave it empty when "Content From" is Binary File: the file is the content',
		);
	const property = ctx.getNodeParameter('binaryPropertyName', itemIndex, 'data');
	return await readTextFile(
		ctx,
		itemIndex,
		'Input Binary Field',
		check.text('Input Binary Field', property),
		emptyRefusal,
	);
}
