import { listWithInclude } from '../listInclude';

export const { description, execute } = listWithInclude('skill', '/skills', [], 'proficiency', {
	displayName: 'Include Proficiency',
	name: 'includeProficiency',
	type: 'boolean',
	default: true,
	description:
		'Whether to add workspace-wide proficiency figures per skill: people who practiced it, people with a score, share at proficient or better, and average score',
});
