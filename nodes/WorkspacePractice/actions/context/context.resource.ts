import { defineResource } from '../types';
import { listOperation } from '../../../shared/operations/listOperation';

export const context = defineResource({
	option: {
		name: 'Context',
		value: 'context',
		description: 'Contexts saved in the workspace, listed by ID and title',
	},
	offers: [
		{
			name: 'Get Many',
			value: 'getAll',
			description: 'List the contexts of the workspace: ID, title and creation date',
			action: 'Get many contexts',
		},
	],
	operations: { getAll: listOperation('context', '/contexts') },
});
