import type {
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { multiOptionSubtitle } from '../shared/subtitle';
import { properties } from './description';
import { EVENTS } from './events';
import { listSearch } from './methods';
import { pollTrigger } from './poll';

export class WorkspacePracticeTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Workspace Practice Trigger',
		name: 'workspacePracticeTrigger',
		icon: {
			light: 'file:workspacePracticeTrigger.svg',
			dark: 'file:workspacePracticeTrigger.dark.svg',
		},
		group: ['trigger'],
		version: 1,
		subtitle: multiOptionSubtitle('events', EVENTS),
		description:
			'Starts the workflow when Knowledge Hub pages are created, updated or published, or a source is ready',
		defaults: { name: 'Workspace Practice Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'workspacePracticeApi', required: true }],
		properties,
	};

	methods = { listSearch };

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		return await pollTrigger.call(this);
	}
}
