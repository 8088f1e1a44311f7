import { uuidPicker } from '../../../shared/fields/locator';

/** A skill picked from a searchable list (name or slug) or given by its UUID. */
export const skillLocator = uuidPicker({
	displayName: 'Skill ID',
	name: 'skill',
	noun: 'skill',
	searchListMethod: 'searchSkills',
	description: 'The skill to report on: pick it from the list or give its UUID',
	required: true,
});
