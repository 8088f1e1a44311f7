import {
	collectionIds,
	endDate,
	excludeSystemUsers,
	groupIds,
	members,
	programIds,
	scenarioIds,
	skillIds,
	startDate,
	queryField,
	type QueryField,
} from '../../../shared/fields/filter.fields';
import { listOperation } from '../../../shared/operations/listOperation';

const filterFields: QueryField[] = [
	members,
	groupIds,
	scenarioIds,
	collectionIds,
	skillIds,
	programIds,
	queryField('list', {
		displayName: 'Rank',
		name: 'rank',
		type: 'multiOptions',
		options: [
			{ name: 'Gold', value: 'gold' },
			{ name: 'Silver', value: 'silver' },
			{ name: 'Bronze', value: 'bronze' },
			{ name: 'Unranked', value: 'unranked' },
		],
		default: [],
		description: 'Only sessions that reached any of these ranks',
	}),
	startDate('sessions created'),
	endDate('sessions created'),
	excludeSystemUsers,
];

export const { description, execute } = listOperation('session', '/sessions', filterFields, {
	sort: {
		keys: [
			{ name: 'Created At', value: 'created_at', description: 'When the session took place' },
			{
				name: 'Duration',
				value: 'duration',
				description: 'How long the session lasted; sessions without one come last',
			},
			{
				name: 'Score',
				value: 'score',
				description: 'The score the session earned; ungraded sessions come last',
			},
		],
		default: 'created_at',
		directional: true,
		// The spec leaves the session list's parameters out ("not shown"); the OpenAPI names it `sorting`.
		params: ['sorting'],
		serviceOrder: 'newest first',
	},
});
