import {
	queryField,
	collectionIds,
	skillIds,
	type QueryField,
} from '../../../shared/fields/filter.fields';
import { memberFilter } from '../fields';
import { listWithInclude } from '../listInclude';

const filterFields: QueryField[] = [
	memberFilter({
		displayName: 'Owner',
		name: 'owner_email',
		kind: 'email',
		description:
			'Only scenarios owned by this member, by e-mail: pick them from the list or type the address (By Email)',
	}),
	memberFilter({
		displayName: 'Visible To',
		name: 'visible_to_email',
		kind: 'email',
		description:
			'Only scenarios this member can open (as owner, through a share with them or their group, or a workspace share), by e-mail: pick them from the list or type the address (By Email)',
	}),
	queryField('text', {
		displayName: 'Visibility',
		name: 'visibility',
		type: 'options',
		options: [
			{
				name: 'Private',
				value: 'private',
				description: 'Only the owner and people it is shared with',
			},
			{ name: 'Workspace', value: 'workspace', description: 'Everyone in the workspace' },
		],
		default: 'workspace',
		description: 'Only scenarios with this visibility',
	}),
	queryField('boolean', {
		displayName: 'Include Archived',
		name: 'include_archived',
		type: 'boolean',
		default: true,
		description: 'Whether to return archived scenarios as well (they are left out by default)',
	}),
	skillIds,
	collectionIds,
];

export const { description, execute } = listWithInclude(
	'scenario',
	'/scenarios',
	filterFields,
	'skills',
	{
		displayName: 'Include Skills',
		name: 'includeSkills',
		type: 'boolean',
		default: true,
		description: 'Whether to add the list of skills each scenario evaluates',
	},
);
