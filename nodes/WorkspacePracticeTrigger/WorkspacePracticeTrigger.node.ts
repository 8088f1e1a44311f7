import type {
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { switchedMultiOptionSubtitle } from '../shared/subtitle';
import { FAMILIES, familyOf, properties } from './families';
import { listSearch, loadOptions } from './methods';

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
		subtitle: switchedMultiOptionSubtitle(
			'triggerOn',
			FAMILIES.map((family) => [
				String(family.option.value),
				family.eventsParameter,
				family.events,
			]),
		),
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
		const family = familyOf(this.getNodeParameter('triggerOn', FAMILIES[0].option.value));
		return await family.poll.call(this);
	}
}
