import { listWithInclude } from '../listInclude';

export const { description, execute } = listWithInclude('skill', '/skills', [], {
	include: 'proficiency',
	displayName: 'Include Proficiency',
	name: 'includeProficiency',
	default: true,
	description:
		'Whether to add workspace-wide proficiency figures per skill: people who practiced it, people with a score, share at proficient or better, and average score',
});
