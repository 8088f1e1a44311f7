import { defineResource } from '../types';
import * as getAll from './getAll.operation';

export const assignment = defineResource({
	option: { name: 'Assignment', value: 'assignment', description: 'Scenarios members were asked to practice, with status and best score' },
	operation: {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['assignment'] } },
		options: [
			{
				name: 'Get Many',
				value: 'getAll',
				description: 'List scenario assignments',
				action: 'Get many assignments',
			},
		],
		default: 'getAll',
	},
	operations: { getAll },
	simplify: { getAll: 'assignment' },
});
