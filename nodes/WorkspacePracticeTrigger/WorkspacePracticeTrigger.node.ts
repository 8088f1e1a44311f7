import type {
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { switchedMultiOptionSubtitle } from '../shared/subtitle';
import { properties } from './description';
import { EVENTS } from './events';
import { listSearch, loadOptions } from './methods';
import { pollTrigger } from './poll';
import { pollPractice } from './practice/poll';
import { PRACTICE_EVENTS } from './practice/settings';

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
		subtitle: switchedMultiOptionSubtitle('triggerOn', [
			['knowledgeHub', 'events', EVENTS],
			['practice', 'practiceEvents', PRACTICE_EVENTS],
		]),
		// n8n's node picker merges this trigger with the action node (same name but "Trigger") into one
		// entry and shows this description on it, above the actions too: so it speaks for both.
		description:
			'Create practice scenarios, read assignments, analytics and skills, manage the Knowledge Hub, and start workflows on Knowledge Hub changes or practice results',
		defaults: { name: 'Workspace Practice Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'workspacePracticeApi', required: true }],
		properties,
	};

	methods = { listSearch, loadOptions };

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		if (this.getNodeParameter('triggerOn', 'knowledgeHub') === 'practice')
			return await pollPractice.call(this);
		return await pollTrigger.call(this);
	}
}
