import type { INodeProperties } from 'n8n-workflow';

import { batchingField } from './batching';
import { resources } from './resources';

const modules = Object.values(resources);

/** The whole form: Resource, then each resource's Operation and its operations' fields. */
export const properties: INodeProperties[] = [
	{
		displayName: 'Resource',
		name: 'resource',
		type: 'options',
		noDataExpression: true,
		// Alphabetical reads best in a long pick-list.
		options: modules.map((module) => module.option).sort((a, b) => a.name.localeCompare(b.name)),
		default: 'scenarioJob',
	},
	...modules.flatMap((module) => [
		module.operation,
		...Object.values(module.operations).flatMap((operation) => operation.description),
	]),
	batchingField,
];
