import { defineResource } from '../types';
import * as getAll from './getAll.operation';
import * as getProficiency from './getProficiency.operation';
import * as getTierChanges from './getTierChanges.operation';

export const skill = defineResource({
	option: {
		name: 'Skill',
		value: 'skill',
		description: 'A competency that roleplay sessions and calls are scored on',
	},
	offers: [
		{
			name: 'Get Many',
			value: 'getAll',
			description:
				'List the skills (competencies scored in sessions and calls), alphabetically by name',
			action: 'Get many skills',
		},
		{
			name: 'Get Proficiency',
			value: 'getProficiency',
			description:
				"Each member's time-weighted score and tier (excellent, proficient, developing, needs work) on one skill, by its ID",
			action: 'Get member proficiency in a skill',
		},
		{
			name: 'Get Tier Changes',
			value: 'getTierChanges',
			description:
				'The members whose tier moved (up, down or new) on one skill or every skill between two dates, 7 days ago and now by default',
			action: 'Get tier changes in skills',
		},
	],
	operations: { getAll, getProficiency, getTierChanges },
	simplify: { getTierChanges: 'tierChange' },
});
