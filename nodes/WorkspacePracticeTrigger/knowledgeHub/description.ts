import type { INodeProperties } from 'n8n-workflow';

import { locator, uuidMode } from '../../shared/fields/locator';
import { memberLocator } from '../../shared/fields/member.locator';
import { shownFor } from '../family';
import { maxReadsOption } from '../quota';
import { EVENTS } from './events';
import { DEFAULT_MAX_READS } from './settings';

/** A filter's locator: the shared builder, with this form's own wording. */
function filterLocator(
	displayName: string,
	name: string,
	searchListMethod: string,
	what: string,
): INodeProperties {
	return locator({
		displayName,
		name,
		description: `Only ${what}. Pick it from the list or paste its UUID.`,
		list: { searchListMethod },
		modes: [uuidMode('Not a UUID', 'e.g. 3f2b8c1e-5a6d-4e7f-9a0b-1c2d3e4f5a6b')],
	});
}

/** Knowledge Hub Changes in Trigger On (the first family: Trigger On's default). */
export const knowledgeHubOption = {
	name: 'Knowledge Hub Changes',
	value: 'knowledgeHub',
	description: 'Pages created, updated or published, and sources ready',
};

const showFor = shownFor(knowledgeHubOption.value);

/** The Knowledge Hub form: its events, filters and options (what a read costs of the daily quota). */
export const knowledgeHubProperties: INodeProperties[] = [
	{
		displayName: 'Events',
		name: 'events',
		type: 'multiOptions',
		required: true,
		default: ['pageCreated', 'pagePublished'],
		description:
			'Which Knowledge Hub changes start the workflow; each change becomes one item naming its event',
		options: [
			{
				name: EVENTS.pageCreated,
				value: 'pageCreated',
				description: 'A new page was created',
			},
			{
				name: EVENTS.pagePublished,
				value: 'pagePublished',
				description: 'A new version of a page was published (its version number changed)',
			},
			{
				name: EVENTS.pageUpdated,
				value: 'pageUpdated',
				description:
					'A page changed after its creation: title, draft content, folders, skills, sources or status (a publication counts too)',
			},
			{
				name: EVENTS.sourceReady,
				value: 'sourceReady',
				description: 'A source finished text extraction and is ready to use',
			},
		],
		displayOptions: showFor,
	},
	{
		// What a read costs, and how Poll Times and the quota decide when one happens, must be seen
		// without opening Options (every family has this notice).
		displayName: `Reads when Poll Times fires, at most ${DEFAULT_MAX_READS} times a day (Options → Max Reads a Day): with Poll Times Every Minute, a read every 2 hours, so a change arrives within 2 hours (1 on average). A read costs 1 request for pages and 1 more with Source Ready, plus 1 per 100 changed pages or ready sources: ${DEFAULT_MAX_READS} requests a day for pages, ${2 * DEFAULT_MAX_READS} with Source Ready. A workspace has 1,000 requests a day, shared by every workflow using the key.`,
		name: 'knowledgeHubCostNotice',
		type: 'notice',
		default: '',
		displayOptions: showFor,
	},
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		description:
			'Only changes to pages (and sources, where the filter applies to them) matching all of these',
		options: [
			filterLocator('Folder', 'folder', 'searchFolders', 'pages and sources in this folder'),
			memberLocator({
				displayName: 'Owner',
				name: 'owner',
				kind: 'id',
				description:
					'Only pages owned by this workspace member (pages only), by user ID: pick them from the list or give the ID (By ID)',
			}),
			filterLocator('Skill', 'skill', 'searchSkills', 'pages linked to this skill (pages only)'),
			{
				displayName: 'Status',
				name: 'status',
				type: 'options',
				default: 'published',
				description:
					'Only pages in this status (pages only); without this filter every page but archived ones counts',
				options: [
					{
						name: 'Draft',
						value: 'draft',
						description: 'Pages not published yet, or moved back to draft',
					},
					{ name: 'Published', value: 'published', description: 'Pages with a published version' },
					{
						name: 'Archived',
						value: 'archived',
						description: 'Archived pages (archiving counts as an update)',
					},
				],
			},
			{
				displayName: 'Title Contains',
				name: 'titleContains',
				type: 'string',
				default: '',
				placeholder: 'e.g. pricing',
				description: 'Only pages and sources whose title contains this text (not case-sensitive)',
			},
		],
		displayOptions: showFor,
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Fetch Full Record',
				name: 'fetchFull',
				type: 'boolean',
				default: false,
				description:
					'Whether to fetch each page in full (published content, attached sources, version) and each source with its extracted text, instead of the list row; one extra request per page or source',
			},
			maxReadsOption(
				DEFAULT_MAX_READS,
				`At most this many reads a day, refilled evenly; polls beyond it send no request. 0: every poll reads. A read costs 1 request for pages and 1 for Source Ready: at ${DEFAULT_MAX_READS}, ${2 * DEFAULT_MAX_READS} a day with both.`,
			),
		],
		displayOptions: showFor,
	},
];
