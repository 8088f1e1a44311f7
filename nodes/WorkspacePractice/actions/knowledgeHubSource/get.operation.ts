import { NodeOperationError } from 'n8n-workflow';

import {
	binaryOutputField,
	fileNameFor,
	readOutputField,
	textFileBinary,
} from '../../../shared/binary/textFile';
import { getById, getByIdOperation, type ByIdSpec } from '../../../shared/operations/byIdOperation';
import { WithFiles, type OperationModule } from '../../../shared/operations/operation';
import { sourceLocator } from './source.locator';
import { optionsField } from '../fields';

const spec: ByIdSpec = {
	resource: 'knowledgeHubSource',
	operation: 'get',
	locator: sourceLocator({
		description: 'The source to get. Pick it from the list (search by title) or give its UUID.',
	}),
	label: 'Source',
	path: '/knowledge-hub/sources',
	more: [
		{
			displayName: 'Output Text as File',
			name: 'textAsFile',
			type: 'boolean',
			default: false,
			description:
				'Whether to also put the extracted text into a binary file named after the title (.md for Markdown, .txt otherwise), e.g. to back it up or hand it to another service',
		},
		binaryOutputField({ displayOptions: { show: { textAsFile: [true] } } }),
		optionsField([
			{
				displayName: 'Include Content',
				name: 'includeContent',
				type: 'boolean',
				default: false,
				description:
					'Whether to add the extracted text under "content". It is read from storage and can be large, so it is off by default.',
			},
		]),
	],
	includes: { includeContent: 'content' },
};

const base = getByIdOperation(spec);
export const description = base.description;

export const execute: OperationModule['execute'] = async function (itemIndex) {
	if (this.getNodeParameter('textAsFile', itemIndex, false) !== true)
		return await base.execute.call(this, itemIndex);
	const property = readOutputField(this, itemIndex);
	const source = await getById(this, spec, itemIndex, ['content']);
	if (typeof source.content !== 'string') {
		throw new NodeOperationError(
			this.getNode(),
			`Output Text as File: source "${String(source.title)}" (${String(source.id)}) has no extracted text; its status is "${String(source.status)}"`,
			{
				itemIndex,
				description:
					'Text exists once extraction is done (status ready). Wait for it with Create From URL → Wait Until Ready, or read the source again later.',
			},
		);
	}
	const markdown = source.content_format === 'markdown';
	const fileName = fileNameFor(source.title, 'source', markdown ? 'md' : 'txt');
	const mimeType = markdown ? 'text/markdown' : 'text/plain';
	const binary = await textFileBinary(this, property, source.content, fileName, mimeType);
	// The text is in the file; the record carries it only when Include Content asks.
	const options = this.getNodeParameter('options', itemIndex, {}) as { includeContent?: boolean };
	const json = { ...source };
	if (options.includeContent !== true) delete json.content;
	return new WithFiles(json, binary);
};
