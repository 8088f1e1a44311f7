import type {
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { switchedMultiOptionSubtitle } from '../shared/subtitle';
import { properties } from './knowledgeHub/description';
import { EVENTS } from './knowledgeHub/events';
import { listSearch, loadOptions } from './methods';
import { pollTrigger } from './knowledgeHub/poll';
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
		description:
			'Starts the workflow when Knowledge Hub pages are created, updated or published, a source is ready, a roleplay session is scored or an assignment is completed, failed or past due',
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
