import { listOperation } from '../../../shared/operations/listOperation';
import { analyticsFilterFields } from './analytics.filters';
import { readScenarioRef, scenarioLocator, scenarioPath } from './scenario.locator';

export const { description, execute } = listOperation(
	'scenario',
	(ctx, itemIndex) => scenarioPath(readScenarioRef(ctx, itemIndex).ref, '/analytics/participants'),
	analyticsFilterFields,
	{
		operation: 'getParticipantAnalytics',
		lead: [scenarioLocator(true)],
		sort: {
			keys: [
				{ name: 'Best Score', value: 'best_score', description: "Each person's highest score" },
				{ name: 'First Score', value: 'first_score', description: "Each person's first score" },
				{
					name: 'Lift Percentage',
					value: 'lift_percentage',
					description: 'Improvement from first to best score',
				},
				{
					name: 'Session Count',
					value: 'session_count',
					description: 'How many sessions each person did',
				},
				{
					name: 'Total Duration',
					value: 'total_duration_seconds',
					description: 'Total practice time in seconds',
				},
			],
			default: 'best_score',
			directional: true,
			// `sort` is the spec's name (the authority); the deployed service's OpenAPI names it `sorting`
			// and would ignore `sort`. The same value goes under both, so either reading sorts alike.
			params: ['sort', 'sorting'],
			serviceOrder: 'highest best score first',
		},
	},
);
