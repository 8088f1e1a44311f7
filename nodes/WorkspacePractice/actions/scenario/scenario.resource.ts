import { defineResource } from '../types';
import * as assign from './assign.operation';
import * as checkAccess from './checkAccess.operation';
import * as getAll from './getAll.operation';
import * as getAnalyticsSummary from './getAnalyticsSummary.operation';
import * as getParticipantAnalytics from './getParticipantAnalytics.operation';
import * as grantAccess from './grantAccess.operation';

export const scenario = defineResource({
	option: { name: 'Scenario', value: 'scenario', description: 'Roleplay practice scenarios: access, assignments and analytics' },
	operation: {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['scenario'] } },
		options: [
			{
				name: 'Assign',
				value: 'assign',
				description: 'Give a member a scenario to practice by a due date',
				action: 'Assign a scenario',
			},
			{
				name: 'Check Access',
				value: 'checkAccess',
				description: 'See what a member may do with a scenario',
				action: 'Check access to a scenario',
			},
			{
				name: 'Get Analytics Summary',
				value: 'getAnalyticsSummary',
				description: 'Totals for a scenario: participants, sessions, average scores and practice time',
				action: 'Get the analytics summary of a scenario',
			},
			{
				name: 'Get Many',
				value: 'getAll',
				description: 'List scenarios in the workspace',
				action: 'Get many scenarios',
			},
			{
				name: 'Get Participant Analytics',
				value: 'getParticipantAnalytics',
				description: "Each participant's first and best score, lift, sessions and time on a scenario",
				action: 'Get participant analytics of a scenario',
			},
			{
				name: 'Grant Access',
				value: 'grantAccess',
				description: 'Share a scenario with a member at a permission level',
				action: 'Grant access to a scenario',
			},
		],
		default: 'getAll',
	},
	operations: { assign, checkAccess, getAll, getAnalyticsSummary, getParticipantAnalytics, grantAccess },
	simplify: { getAll: 'scenario', getParticipantAnalytics: 'participantAnalytics' },
});
