import { defineResource } from '../types';
import * as archive from './archive.operation';
import * as create from './create.operation';
import * as get from './get.operation';
import * as getAll from './getAll.operation';
import * as getVersions from './getVersions.operation';
import * as update from './update.operation';

export const knowledgeHubPage = defineResource({
	option: {
		name: 'Knowledge Hub Page',
		value: 'knowledgeHubPage',
		description: 'Markdown pages of the Knowledge Hub, with drafts and published versions',
	},
	operation: {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['knowledgeHubPage'] } },
		options: [
			{
				name: 'Archive',
				value: 'archive',
				description: 'Archive a page: hidden from lists, history kept',
				action: 'Archive a knowledge hub page',
			},
			{
				name: 'Create',
				value: 'create',
				description: 'Create a page, as a draft or published right away',
				action: 'Create a knowledge hub page',
			},
			{
				name: 'Get',
				value: 'get',
				description: 'Get one page with its published content, sources and skills',
				action: 'Get a knowledge hub page',
			},
			{
				name: 'Get Many',
				value: 'getAll',
				description: 'List pages (without their content), with filters',
				action: 'Get many knowledge hub pages',
			},
			{
				name: 'Get Versions',
				value: 'getVersions',
				description: 'List the version history of a page, newest first',
				action: 'Get versions of a knowledge hub page',
			},
			{
				name: 'Update',
				value: 'update',
				description: 'Change the title, content, status or the folders, sources and skills of a page',
				action: 'Update a knowledge hub page',
			},
		],
		default: 'getAll',
	},
	operations: { archive, create, get, getAll, getVersions, update },
	simplify: { create: 'knowledgeHubPage', get: 'knowledgeHubPage', getAll: 'knowledgeHubPage', update: 'knowledgeHubPage' },
});
