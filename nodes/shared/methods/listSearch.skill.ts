import { matchFields, searchMethod } from './searchMethod';

/** Skill picker, matched on name and slug a page at a time. */
export const searchSkills = searchMethod({
	path: '/skills',
	toItem: (row) => ({ name: String(row.name ?? row.id), value: String(row.id) }),
	matches: matchFields('name', 'slug'),
});
