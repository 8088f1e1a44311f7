import {
	FROM_DATE_RULE,
	UNTIL_DATE_RULE,
	queryField,
	type QueryField,
} from '../../../shared/fields/filter.fields';
import { listOperation } from '../../../shared/operations/listOperation';
import { folderLocator } from '../knowledgeHubFolder/folder.locator';
import { skillLocator } from '../skill/skill.locator';
import { memberFilter, searchFilter, uuidFilter } from '../fields';

const filterFields: QueryField[] = [
	uuidFilter(folderLocator, {
		displayName: 'Folder',
		name: 'folder_id',
		description: 'Only pages in this folder. Pick it from the list or give its UUID.',
	}),
	// The API filters pages by the owner's user ID only, so the picker offers no By Email.
	memberFilter({
		displayName: 'Owner',
		name: 'owner_id',
		kind: 'id',
		description:
			'Only pages owned by this workspace member, by user ID: pick them from the list or give the ID (By ID)',
	}),
	searchFilter('e.g. pricing', 'pages whose title'),
	uuidFilter(skillLocator, {
		displayName: 'Skill',
		name: 'skill_id',
		description: 'Only pages linked to this skill. Pick it from the list or give its UUID.',
	}),
	queryField('option', {
		displayName: 'Status',
		name: 'status',
		type: 'options',
		options: [
			{ name: 'Archived', value: 'archived' },
			{ name: 'Draft', value: 'draft' },
			{ name: 'Published', value: 'published' },
		],
		default: 'published',
		description: 'Only pages in this state',
	}),
	queryField('dateFrom', {
		displayName: 'Updated After',
		name: 'updated_after',
		type: 'dateTime',
		default: '',
		description: `Only pages last updated on or after this date and time (${FROM_DATE_RULE})`,
	}),
	queryField('dateUntil', {
		displayName: 'Updated Before',
		name: 'updated_before',
		type: 'dateTime',
		default: '',
		description: `Only pages last updated on or before this date and time (${UNTIL_DATE_RULE})`,
	}),
];

export const { description, execute } = listOperation(
	'knowledgeHubPage',
	'/knowledge-hub/pages',
	filterFields,
	{
		sort: {
			keys: [
				{
					name: 'Created (Newest First)',
					value: 'created_at',
					description: 'When the page was created, newest first',
				},
				{ name: 'Title (A to Z)', value: 'title', description: 'The page title, alphabetically' },
				{
					name: 'Updated (Newest First)',
					value: 'updated_at',
					description: 'When the page last changed, newest first',
				},
			],
			default: 'updated_at',
			// The spec fixes each value's order and takes no "-": no Direction to offer.
			directional: false,
			params: ['sort'],
			serviceOrder: 'last updated, newest first',
		},
	},
);
