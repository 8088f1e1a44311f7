import type { TriggerFamily } from '../family';
import { pollFamily } from '../family';
import { practiceOption, practiceProperties } from './description';
import { practicePoll } from './poll';
import { PRACTICE_EVENTS } from './settings';

/** Practice Results: sessions scored, assignments completed, failed or past due. */
export const practice: TriggerFamily = {
	option: practiceOption,
	eventsParameter: 'practiceEvents',
	events: PRACTICE_EVENTS,
	properties: practiceProperties,
	async poll() {
		return await pollFamily(this, practicePoll);
	},
};
