import type { TriggerFamily } from '../family';
import { pollFamily } from '../family';
import { knowledgeHubOption, knowledgeHubProperties } from './description';
import { EVENTS } from './events';
import { knowledgeHubPoll } from './poll';

/** Knowledge Hub Changes: pages created, updated or published, sources ready. */
export const knowledgeHub: TriggerFamily = {
	option: knowledgeHubOption,
	eventsParameter: 'events',
	events: EVENTS,
	properties: knowledgeHubProperties,
	async poll() {
		return await pollFamily(this, knowledgeHubPoll);
	},
};
