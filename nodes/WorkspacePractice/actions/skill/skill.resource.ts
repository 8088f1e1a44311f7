import { defineResource } from '../types';
import * as getAll from './getAll.operation';
import * as getProficiency from './getProficiency.operation';

export const skill = defineResource({
	option: { name: 'Skill', value: 'skill', description: 'Competencies scored in roleplay sessions and calls' },
	operation: {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['skill'] } },
		options: [
			{
				name: 'Get Many',
				value: 'getAll',
				description: 'List skills, alphabetically by name',
				action: 'Get many skills',
			},
			{
				name: 'Get Proficiency',
				value: 'getProficiency',
				description: "Each member's time-weighted score and tier on one skill",
				action: 'Get proficiency for a skill',
			},
		],
		default: 'getAll',
	},
	operations: { getAll, getProficiency },
});
