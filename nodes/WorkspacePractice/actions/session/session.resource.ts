import { defineResource } from '../types';
import * as get from './get.operation';
import * as getAll from './getAll.operation';

export const session = defineResource({
	option: {
		name: 'Session',
		value: 'session',
		description: 'A roleplay session: one attempt of a member at a scenario, with score and rank',
	},
	offers: [
		{
			name: 'Get',
			value: 'get',
			description:
				'Get one roleplay session by its ID with score, rank and feedback, optionally its transcript and evaluations',
			action: 'Get a roleplay session by ID',
		},
		{
			name: 'Get Many',
			value: 'getAll',
			description:
				'List roleplay sessions with member, scenario, score and rank, newest first by default; filter by member, group, scenario, skill and more',
			action: 'Get many roleplay sessions',
		},
	],
	default: 'getAll',
	operations: { get, getAll },
	simplify: { get: 'session', getAll: 'session' },
});
