import { NodeOperationError, type IDataObject } from 'n8n-workflow';

import {
	binaryOutputField,
	fileNameFor,
	readOutputField,
	textFileBinary,
} from '../../../shared/binary/textFile';
import { getById, getByIdOperation, type ByIdSpec } from '../../../shared/operations/byIdOperation';
import { WithFiles, type OperationModule } from '../../../shared/operations/operation';
import { optionsField } from '../fields';
import { pageLocator } from './page.locator';

const spec: ByIdSpec = {
	resource: 'knowledgeHubPage',
	operation: 'get',
	locator: pageLocator({
		description: 'The page to get. Pick it from the list (search by title) or give its UUID.',
	}),
	label: 'Page',
	path: '/knowledge-hub/pages',
	more: [
		{
			displayName: 'Output as File',
			name: 'fileOutput',
			type: 'options',
			options: [
				{
					name: 'Draft Markdown',
					value: 'draft',
					description:
						'The pending draft as a .md file named after the title (the published text when there is no draft)',
				},
				{ name: 'None', value: 'none', description: 'Only the page record' },
				{
					name: 'Published Markdown',
					value: 'published',
					description: 'The published version as a .md file named after the title',
				},
			],
			default: 'none',
			description:
				'Whether to also put the page body into a binary file, e.g. to back it up or hand it to another service',
		},
		binaryOutputField({ displayOptions: { hide: { fileOutput: ['none'] } } }),
		optionsField([
			{
				displayName: 'Include Draft',
				name: 'includeDraft',
				type: 'boolean',
				default: false,
				description:
					'Whether to add the unpublished draft (its title and Markdown content) under "draft"; the published body is always in "content"',
			},
		]),
	],
	includes: { includeDraft: 'draft' },
};

const base = getByIdOperation(spec);
export const description = base.description;

export const execute: OperationModule['execute'] = async function (itemIndex) {
	const fileOutput = this.getNodeParameter('fileOutput', itemIndex, 'none') as string;
	if (fileOutput === 'none') return await base.execute.call(this, itemIndex);
	const property = readOutputField(this, itemIndex);
	const page = await getById(this, spec, itemIndex, fileOutput === 'draft' ? ['draft'] : []);
	const draft = page.draft as IDataObject | null | undefined;
	const text = fileOutput === 'draft' ? (draft?.content ?? page.content) : page.content;
	if (typeof text !== 'string') {
		throw new NodeOperationError(
			this.getNode(),
			`Output as File: page "${String(page.title)}" (${String(page.id)}) has no ${fileOutput === 'draft' ? 'draft or published' : 'published'} Markdown`,
			{
				itemIndex,
				description:
					fileOutput === 'published'
						? 'The page was never published. Choose "Draft Markdown" to get its draft as a file, or publish it first.'
						: 'The page has no content yet. Add content with Knowledge Hub Page → Update.',
			},
		);
	}
	const title = fileOutput === 'draft' ? (draft?.title ?? page.title) : page.title;
	const fileName = fileNameFor(title, 'page', 'md');
	return new WithFiles(page, await textFileBinary(this, property, text, fileName, 'text/markdown'));
};
