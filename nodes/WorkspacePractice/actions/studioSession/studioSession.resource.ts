import { defineResource } from '../types';
import * as create from './create.operation';

export const studioSession = defineResource({
	option: {
		name: 'Studio Session',
		value: 'studioSession',
		description: 'Interactive Scenario Studio sessions a user opens to build a scenario with the AI agent',
	},
	operation: {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['studioSession'] } },
		options: [
			{
				name: 'Create',
				value: 'create',
				description: 'Start a session pre-filled with a prompt and get the URL for the user to open',
				action: 'Create a studio session',
			},
		],
		default: 'create',
	},
	operations: { create },
});
