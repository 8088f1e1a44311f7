import type { INodeProperties } from 'n8n-workflow';

import { shownFor } from '../family';
import { maxReadsOption } from '../quota';
import { practiceFilterOptions } from './fields';
import {
	DEFAULT_ASSIGNMENT_MAX_READS,
	DEFAULT_LOOKBACK_HOURS,
	DEFAULT_MAX_READS,
	DEFAULT_OPEN_READ_HOURS,
	PRACTICE_EVENTS,
} from './settings';

/** Practice Results in Trigger On. */
export const practiceOption = {
	name: 'Practice Results',
	value: 'practice',
	description: 'Scored roleplay sessions and assignment outcomes',
};

const showFor = shownFor(practiceOption.value);

const ASSIGNMENT_EVENTS = ['assignmentCompleted', 'assignmentDidNotPass', 'assignmentPastDue'];

/** When reads happen: Session Scored reads more often by default than the assignment events alone. */
const READS = `Reads when Poll Times fires, at most ${DEFAULT_MAX_READS} times a day (Options → Max Reads a Day): with Poll Times Every Minute, a read every 30 minutes.`;
const ASSIGNMENT_READS = `Reads when Poll Times fires, at most ${DEFAULT_ASSIGNMENT_MAX_READS} times a day with assignment events alone, ${DEFAULT_MAX_READS} with Session Scored (Options → Max Reads a Day): with Poll Times Every Minute, a read every hour (every 30 minutes).`;
const QUOTA = 'A workspace has 1,000 requests a day, shared by every workflow using the key.';

/** The Practice Results form: its events, filters and options (what each costs of the daily quota). */
export const practiceProperties: INodeProperties[] = [
	{
		displayName: 'Events',
		name: 'practiceEvents',
		type: 'multiOptions',
		required: true,
		displayOptions: showFor,
		default: ['sessionScored'],
		description:
			'Which practice results start the workflow; each becomes one item naming its event, with the session or assignment',
		options: [
			{
				name: PRACTICE_EVENTS.assignmentCompleted,
				value: 'assignmentCompleted',
				description:
					'An assignment became completed, by a session or by an admin; never one finished before activation. Within one read of the scoring session, whenever the assignment was given; with no session (an admin), at the next assignment read (once a day by default).',
			},
			{
				name: PRACTICE_EVENTS.assignmentDidNotPass,
				value: 'assignmentDidNotPass',
				description:
					'An assignment became did-not-pass (out of attempts without the required rank, or set by an admin). Same timing as Assignment Completed.',
			},
			{
				name: PRACTICE_EVENTS.assignmentPastDue,
				value: 'assignmentPastDue',
				description:
					'An open assignment passed its due date. Found by the assignment read (once a day by default).',
			},
			{
				name: PRACTICE_EVENTS.sessionScored,
				value: 'sessionScored',
				description:
					'A roleplay session received its score (listed before scoring or not), once per session',
			},
		],
	},
	{
		// The notice follows the events chosen (the default is Session Scored alone): what a read costs
		// and how long an event takes, without opening Options.
		displayName: `${READS} A scored session arrives about 15 minutes after its score (median; at most 30). A read costs 1 request when no session is new, plus 1 per 100 sessions of the last 6 hours (Options → Lookback Hours) when some are: 48 requests on an idle day. ${QUOTA}`,
		name: 'practiceCostNotice',
		type: 'notice',
		displayOptions: {
			show: { ...showFor.show, practiceEvents: ['sessionScored'] },
			hide: { practiceEvents: ASSIGNMENT_EVENTS },
		},
		default: '',
	},
	{
		displayName: `${ASSIGNMENT_READS} Assignment Completed and Did Not Pass arrive one read after the scoring session, whenever the assignment was given; with no session (an admin's action), and Assignment Past Due, at the next read of open assignments. Open assignments are read once a day (Options → Hours Between Open Reads, 24), the first time at the end of the activation day (the workflow's time zone): a past-due digest activated in the morning posts that evening. A read costs 1 request for sessions (plus 1 per 100 new ones), 1 more (per 50 people) when some are new, and once a day 2 plus 1 per 100 open assignments: Completed and Did Not Pass cost about 45 requests a day for a team of 200 (300 open), 60 for 500 members (1,500 open). ${QUOTA}`,
		name: 'practiceAssignmentCostNotice',
		type: 'notice',
		displayOptions: { show: { ...showFor.show, practiceEvents: ASSIGNMENT_EVENTS } },
		default: '',
	},
	{
		displayName: 'Filters',
		name: 'practiceFilters',
		type: 'collection',
		placeholder: 'Add Filter',
		displayOptions: showFor,
		default: {},
		description:
			'Only practice results matching all of these; each filter says which events it applies to',
		options: practiceFilterOptions,
	},
	{
		displayName: 'Options',
		name: 'practiceOptions',
		type: 'collection',
		placeholder: 'Add Option',
		displayOptions: showFor,
		default: {},
		options: [
			{
				displayName: 'Hours Between Open Reads',
				name: 'openReadHours',
				type: 'number',
				typeOptions: { minValue: 0, maxValue: 168, numberPrecision: 0 },
				default: DEFAULT_OPEN_READ_HOURS,
				// Session Scored alone reads no assignment: the option would change nothing.
				displayOptions: { show: { '/practiceEvents': ASSIGNMENT_EVENTS } },
				description:
					'How often the open assignments (not started, in progress, past due) and those finished since the last such read are read. It delays what no scored session shows: Assignment Past Due, and an outcome set by an admin, up to this plus one read; the first read after activation comes at the end of that day (in the workflow time zone) when that is sooner. It does not delay an outcome a scored session shows (completed or did not pass, even for an assignment given since the last such read): that arrives within one read of the session. Each read costs 2 requests plus 1 per 100 open assignments: with 500 open, every 24 hours (the default) is 7 requests a day, every 6 hours 28, 0 (every read) 336 at 48 reads a day.',
			},
			{
				displayName: 'Include Session Feedback',
				name: 'includeFeedback',
				type: 'boolean',
				default: false,
				description:
					"Whether to fetch each scored session's detail (outcome, positive and constructive feedback) instead of the list row; 1 extra request per Session Scored event (200 a day for 200 sessions)",
			},
			{
				displayName: 'Lookback Hours',
				name: 'lookbackHours',
				type: 'number',
				typeOptions: { minValue: 1, maxValue: 168, numberPrecision: 0 },
				default: DEFAULT_LOOKBACK_HOURS,
				description:
					'A session scored or listed late is still caught when it was created at most this long before the newest session. A read with nothing new costs 1 request; one that finds new sessions lists the whole window, 1 request per 100 scored sessions in it, so a longer window costs more on busy days.',
			},
			maxReadsOption(
				DEFAULT_MAX_READS,
				`At most this many reads a day, refilled evenly; 0: every poll. Unset: ${DEFAULT_MAX_READS} with Session Scored, else ${DEFAULT_ASSIGNMENT_MAX_READS}. Adding this option sets ${DEFAULT_MAX_READS} whatever the events.`,
			),
		],
	},
];
