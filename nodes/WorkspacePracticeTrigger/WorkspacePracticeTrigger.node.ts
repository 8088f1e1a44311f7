import type {
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { refuseUnofferedValues } from '../shared/fields/offered';
import { switchedMultiOptionSubtitle } from '../shared/subtitle';
import { FAMILIES, familyOf, properties } from './families';
import { credentialTest } from '../shared/methods/credentialTest';
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
		// n8n's node picker merges this trigger with the action node (same name but "Trigger") into one
		// entry and shows this description on it, above the actions too: so it speaks for both.
		description:
			'Create practice scenarios, read assignments, analytics and skills, manage the Knowledge Hub, and start workflows on Knowledge Hub changes or practice results',
		defaults: { name: 'Workspace Practice Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{ name: 'workspacePracticeApi', required: true, testedBy: 'workspacePracticeApiTest' },
		],
		properties,
	};

	methods = { listSearch, loadOptions, credentialTest };

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		// Every family's options fields hold values the form offers, before any read is spent.
		refuseUnofferedValues(this.getNode(), properties, (name) => this.getNodeParameter(name, null));
		const family = familyOf(this.getNodeParameter('triggerOn', FAMILIES[0].option.value));
		return await family.poll.call(this);
	}
}
