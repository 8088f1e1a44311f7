import type { INodeProperties, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { resources } from './resources';

const modules = Object.values(resources);

const resourceField: INodeProperties = {
	displayName: 'Resource',
	name: 'resource',
	type: 'options',
	noDataExpression: true,
	// n8n shows pick-lists in the order given: alphabetical reads best.
	options: modules.map((module) => module.option).sort((a, b) => a.name.localeCompare(b.name)),
	default: 'scenarioJob' in resources ? 'scenarioJob' : 'workspace',
};

export const versionDescription: INodeTypeDescription = {
	displayName: 'Workspace Practice',
	name: 'workspacePractice',
	icon: { light: 'file:workspacePractice.svg', dark: 'file:workspacePractice.dark.svg' },
	group: ['transform'],
	version: 1,
	subtitle: '={{ $parameter["operation"] + ": " + $parameter["resource"] }}',
	description:
		'Create practice scenarios with the AI agent, grant access, read assignments, analytics and skills, and manage the Knowledge Hub',
	defaults: { name: 'Workspace Practice' },
	usableAsTool: true,
	inputs: [NodeConnectionTypes.Main],
	outputs: [NodeConnectionTypes.Main],
	credentials: [{ name: 'workspacePracticeApi', required: true }],
	properties: [
		resourceField,
		...modules.flatMap((module) => [
			module.operation,
			...Object.values(module.operations).flatMap((operation) => operation.description),
		]),
	],
};
