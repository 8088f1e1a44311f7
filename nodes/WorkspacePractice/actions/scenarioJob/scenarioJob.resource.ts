import { defineResource } from '../types';
import * as cancel from './cancel.operation';
import * as create from './create.operation';
import * as get from './get.operation';

export const scenarioJob = defineResource({
	option: {
		name: 'Scenario Job',
		value: 'scenarioJob',
		description: 'Have the AI agent create a practice scenario in the background',
	},
	operation: {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['scenarioJob'] } },
		options: [
			{
				name: 'Cancel',
				value: 'cancel',
				description: 'Cancel a queued or processing job',
				action: 'Cancel a scenario job',
			},
			{
				name: 'Create',
				value: 'create',
				description: 'Start a job that creates a scenario, optionally waiting for the result',
				action: 'Create a scenario job',
			},
			{
				name: 'Get',
				value: 'get',
				description: 'Read the status and result of a job',
				action: 'Get a scenario job',
			},
		],
		default: 'create',
	},
	operations: { cancel, create, get },
	simplify: { cancel: 'scenarioJob', create: 'scenarioJob', get: 'scenarioJob' },
});
