import { defineResource } from '../types';
import * as create from './create.operation';
import { cancel, get } from './job.operations';

export const scenarioJob = defineResource({
	option: {
		name: 'Scenario Job',
		value: 'scenarioJob',
		description:
			"A background job in which the service's AI builds a practice scenario from a prompt",
	},
	offers: [
		{
			name: 'Cancel',
			value: 'cancel',
			description:
				'Cancel a queued or processing scenario job by its ID. Returns the job, now cancelled.',
			action: 'Cancel a scenario job by ID',
		},
		{
			name: 'Create',
			value: 'create',
			description:
				"Start a background job in which the service's AI builds a practice scenario from a prompt, for a member (by e-mail address). Returns the job, or the finished job and its scenario when set to wait.",
			action: 'Create a scenario job from a prompt',
		},
		{
			name: 'Get',
			value: 'get',
			description:
				'Read a scenario job by its ID: its status, and once done the new scenario (ID, name, URL) or the reason it failed',
			action: 'Get a scenario job by ID',
		},
	],
	default: 'create',
	operations: { cancel, create, get },
	simplify: { cancel: 'scenarioJob', create: 'scenarioJob', get: 'scenarioJob' },
});
