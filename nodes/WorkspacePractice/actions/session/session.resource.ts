import { defineResource } from '../types';
import * as get from './get.operation';
import * as getAll from './getAll.operation';

export const session = defineResource({
	option: {
		name: 'Session',
		value: 'session',
		description: 'Roleplay practice sessions: one attempt of a member at a scenario, with score and rank',
	},
	operation: {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['session'] } },
		options: [
			{
				name: 'Get',
				value: 'get',
				description: 'Get one roleplay session with its feedback, and optionally transcript and evaluations',
				action: 'Get a roleplay session',
			},
			{
				name: 'Get Many',
				value: 'getAll',
				description: 'List roleplay sessions, newest first by default',
				action: 'Get many roleplay sessions',
			},
		],
		default: 'getAll',
	},
	operations: { get, getAll },
	simplify: { get: 'session', getAll: 'session' },
});
