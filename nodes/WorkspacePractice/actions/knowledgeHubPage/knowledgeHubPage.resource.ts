import { defineResource } from '../types';
import * as archive from './archive.operation';
import * as create from './create.operation';
import * as createOrUpdate from './createOrUpdate.operation';
import * as get from './get.operation';
import * as getAll from './getAll.operation';
import * as getVersions from './getVersions.operation';
import * as update from './update.operation';

export const knowledgeHubPage = defineResource({
	option: {
		name: 'Knowledge Hub Page',
		value: 'knowledgeHubPage',
		description:
			"A Markdown page of the Knowledge Hub (the workspace's knowledge base), with a draft and published versions",
	},
	offers: [
		{
			name: 'Archive',
			value: 'archive',
			description:
				'Archive a page by its ID: hidden from lists, its history kept. Returns the ID and a deleted flag.',
			action: 'Archive a knowledge hub page by ID',
		},
		{
			name: 'Create',
			value: 'create',
			description:
				'Create a page from a title and optional Markdown content, as a draft or published right away. Returns the new page.',
			action: 'Create a knowledge hub page with a title',
		},
		{
			name: 'Create or Update',
			value: 'createOrUpdate',
			description:
				'Find a page by its exact title (optionally in a folder): create it when missing, update it when its content differs, leave it alone when equal. Returns the page with sync_result created, updated or unchanged.',
			action: 'Create or update a knowledge hub page',
		},
		{
			name: 'Get',
			value: 'get',
			description:
				'Get one page by its ID: title, status, the Markdown content of its published version, its sources and skills, optionally its pending draft',
			action: 'Get a knowledge hub page by ID',
		},
		{
			name: 'Get Many',
			value: 'getAll',
			description:
				'List pages without their content (ID, title, status, folders, version, dates); filter by folder, owner, skill, status, words in the title or date',
			action: 'Get many knowledge hub pages',
		},
		{
			name: 'Get Versions',
			value: 'getVersions',
			description:
				'List the version history of a page by its ID, newest first: version, title, change type, author and date',
			action: 'Get versions of a knowledge hub page',
		},
		{
			name: 'Update',
			value: 'update',
			description:
				'Change a page by its ID: title, Markdown content, status (publish it), folders, sources or skills. Returns the updated page.',
			action: 'Update a knowledge hub page by ID',
		},
	],
	default: 'getAll',
	operations: { archive, create, createOrUpdate, get, getAll, getVersions, update },
	simplify: {
		create: 'knowledgeHubPage',
		get: 'knowledgeHubPage',
		getAll: 'knowledgeHubPage',
		update: 'knowledgeHubPage',
	},
});
