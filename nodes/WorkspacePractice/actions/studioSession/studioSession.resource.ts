import { defineResource } from '../types';
import * as create from './create.operation';

export const studioSession = defineResource({
	option: {
		name: 'Studio Session',
		value: 'studioSession',
		description:
			"A Scenario Studio session: a link a member opens to build a scenario together with the service's AI",
	},
	offers: [
		{
			name: 'Create',
			value: 'create',
			description:
				'Start a Scenario Studio session pre-filled with a prompt, for a member (by e-mail address). Returns the URL the member opens.',
			action: 'Create a studio session for a member',
		},
	],
	operations: { create },
});
