import { defineResource } from '../types';
import * as get from './get.operation';

export const workspace = defineResource({
	option: {
		name: 'Workspace',
		value: 'workspace',
		description: 'The workspace the API key belongs to',
	},
	offers: [
		{
			name: 'Get',
			value: 'get',
			description: 'Get the workspace the API key belongs to: ID, name and URL slug',
			action: 'Get the workspace',
		},
	],
	operations: { get },
});
