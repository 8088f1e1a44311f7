import { defineResource } from '../types';
import * as assign from './assign.operation';
import * as checkAccess from './checkAccess.operation';
import * as getAll from './getAll.operation';
import * as getAnalyticsSummary from './getAnalyticsSummary.operation';
import * as getParticipantAnalytics from './getParticipantAnalytics.operation';
import * as grantAccess from './grantAccess.operation';

export const scenario = defineResource({
	option: {
		name: 'Scenario',
		value: 'scenario',
		description:
			'A roleplay practice scenario that members rehearse and are scored on: access, assignments and analytics',
	},
	offers: [
		{
			name: 'Assign',
			value: 'assign',
			description:
				'Ask a member (by e-mail address) to practice a scenario (by ID or URL) by a due date. Returns the assignment.',
			action: 'Assign a scenario to a member',
		},
		{
			name: 'Check Access',
			value: 'checkAccess',
			description:
				'See what a member (by e-mail address) may do with a scenario (by ID or URL): view, share, monitor, edit',
			action: 'Check access of a member to a scenario',
		},
		{
			name: 'Get Analytics Summary',
			value: 'getAnalyticsSummary',
			description:
				'Totals for one scenario (by ID, slug or URL): participants, sessions, average best score and rank, average lift, practice time',
			action: 'Get the analytics summary of a scenario',
		},
		{
			name: 'Get Many',
			value: 'getAll',
			description:
				'List the scenarios of the workspace: ID, name, description, owner, visibility and page URL; filter by owner, access, visibility, skill or collection',
			action: 'Get many scenarios',
		},
		{
			name: 'Get Participant Analytics',
			value: 'getParticipantAnalytics',
			description:
				"Each participant's sessions, first and best score and rank, lift and practice time on one scenario (by ID, slug or URL)",
			action: 'Get participant analytics of a scenario',
		},
		{
			name: 'Grant Access',
			value: 'grantAccess',
			description:
				'Share a scenario (by ID or URL) with a member (by e-mail address) at a permission level. Returns the grant.',
			action: 'Grant a member access to a scenario',
		},
	],
	default: 'getAll',
	operations: {
		assign,
		checkAccess,
		getAll,
		getAnalyticsSummary,
		getParticipantAnalytics,
		grantAccess,
	},
	simplify: { getAll: 'scenario', getParticipantAnalytics: 'participantAnalytics' },
});
