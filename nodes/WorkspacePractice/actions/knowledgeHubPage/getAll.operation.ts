import type { QueryField } from '../../../shared/fields/filter.fields';
import { memberLocator } from '../../../shared/fields/member.locator';
import { listOperation } from '../../../shared/operations/listOperation';
import { folderLocator } from '../knowledgeHubFolder/folder.locator';
import { skillLocator } from '../skill/skill.locator';

const filterFields: QueryField[] = [
	{
		kind: 'uuidLocator',
		property: folderLocator({
			name: 'folder_id',
			required: false,
			description: 'Only pages in this folder. Pick it from the list or give its UUID.',
		}),
	},
	{
		// The API filters pages by the owner's user ID only, so the picker offers no By Email.
		kind: 'memberId',
		property: memberLocator({
			displayName: 'Owner',
			name: 'owner_id',
			kind: 'id',
			description: 'Only pages owned by this workspace member, by user ID: pick them from the list or give the ID (By ID)',
		}),
	},
	{
		kind: 'text',
		property: {
			displayName: 'Search',
			name: 'query',
			type: 'string',
			default: '',
			placeholder: 'e.g. pricing',
			description: 'Only pages whose title contains this text (not case-sensitive)',
		},
	},
	{
		kind: 'uuidLocator',
		property: skillLocator({
			name: 'skill_id',
			required: false,
			description: 'Only pages linked to this skill. Pick it from the list or give its UUID.',
		}),
	},
	{
		kind: 'option',
		property: {
			displayName: 'Sort By',
			name: 'sort',
			type: 'options',
			options: [
				{ name: 'Created (Newest First)', value: 'created_at' },
				{ name: 'Title (A to Z)', value: 'title' },
				{ name: 'Updated (Newest First)', value: 'updated_at' },
			],
			default: 'updated_at',
			description: 'Order of the results; without this filter the service sorts by last update, newest first',
		},
	},
	{
		kind: 'option',
		property: {
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
		},
	},
	{
		kind: 'dateTime',
		property: {
			displayName: 'Updated After',
			name: 'updated_after',
			type: 'dateTime',
			default: '',
			description: 'Only pages last updated on or after this date and time',
		},
	},
	{
		kind: 'dateTime',
		property: {
			displayName: 'Updated Before',
			name: 'updated_before',
			type: 'dateTime',
			default: '',
			description: 'Only pages last updated on or before this date and time',
		},
	},
];

export const { description, execute } = listOperation('knowledgeHubPage', '/knowledge-hub/pages', filterFields);
