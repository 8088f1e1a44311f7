import { defineResource } from '../types';
import * as get from './get.operation';
import * as getAll from './getAll.operation';

export const knowledgeHubFolder = defineResource({
	option: {
		name: 'Knowledge Hub Folder',
		value: 'knowledgeHubFolder',
		description:
			"A folder (Space) of the Knowledge Hub, the workspace's knowledge base of pages and sources",
	},
	offers: [
		{
			name: 'Get',
			value: 'get',
			description: 'Get one Knowledge Hub folder (Space) by its ID',
			action: 'Get a knowledge hub folder by ID',
		},
		{
			name: 'Get Many',
			value: 'getAll',
			description:
				'List Knowledge Hub folders (Spaces), optionally only the children of one folder or those matching a search',
			action: 'Get many knowledge hub folders',
		},
	],
	default: 'getAll',
	operations: { get, getAll },
});
