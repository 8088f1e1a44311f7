import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { apiList } from '../../transport';
import { forOperation, readListOptions, returnAllAndLimit } from '../common.fields';
import type { OperationResult } from '../types';
import { analyticsFilterFields, analyticsFilters } from './analytics.filters';
import { readFilters } from '../shared/filter.fields';
import { readScenarioRef, scenarioLocator, scenarioPath } from './scenario.locator';
import { readSorting, sortFields } from '../shared/sort.fields';

const DEFAULT_SORT = 'best_score';

const fields: INodeProperties[] = [
	scenarioLocator(true),
	...returnAllAndLimit,
	analyticsFilters,
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: sortFields(
			[
				{ name: 'Best Score', value: 'best_score', description: "Each person's highest score" },
				{ name: 'First Score', value: 'first_score', description: "Each person's first score" },
				{ name: 'Lift Percentage', value: 'lift_percentage', description: 'Improvement from first to best score' },
				{ name: 'Session Count', value: 'session_count', description: 'How many sessions each person did' },
				{ name: 'Total Duration', value: 'total_duration_seconds', description: 'Total practice time in seconds' },
			],
			DEFAULT_SORT,
		),
	},
];

export const description = forOperation('scenario', 'getParticipantAnalytics', fields);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<OperationResult> {
	const { ref } = readScenarioRef(this, itemIndex);
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const qs = readFilters(this, itemIndex, analyticsFilterFields);
	const sorting = readSorting(options, DEFAULT_SORT);
	if (sorting) qs.sorting = sorting;
	return await apiList<IDataObject>(this, scenarioPath(ref, '/analytics/participants'), qs, readListOptions(this, itemIndex));
}
