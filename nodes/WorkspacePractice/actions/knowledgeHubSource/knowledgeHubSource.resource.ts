import { defineResource } from '../types';
import * as archive from './archive.operation';
import * as createFromUrl from './createFromUrl.operation';
import * as get from './get.operation';
import * as getAll from './getAll.operation';

export const knowledgeHubSource = defineResource({
	option: {
		name: 'Knowledge Hub Source',
		value: 'knowledgeHubSource',
		description: 'Documents and web pages the Knowledge Hub extracted text from',
	},
	operation: {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['knowledgeHubSource'] } },
		options: [
			{
				name: 'Archive',
				value: 'archive',
				description: 'Archive (soft-delete) a source',
				action: 'Archive a knowledge hub source',
			},
			{
				name: 'Create From URL',
				value: 'createFromUrl',
				description: 'Add a web page as a source; an existing URL returns the existing source',
				action: 'Create a knowledge hub source from a URL',
			},
			{
				name: 'Get',
				value: 'get',
				description: 'Get one source, optionally with its extracted text',
				action: 'Get a knowledge hub source',
			},
			{
				name: 'Get Many',
				value: 'getAll',
				description: 'List sources (without their text), with filters',
				action: 'Get many knowledge hub sources',
			},
		],
		default: 'getAll',
	},
	operations: { archive, createFromUrl, get, getAll },
	simplify: { createFromUrl: 'knowledgeHubSource', get: 'knowledgeHubSource', getAll: 'knowledgeHubSource' },
});
