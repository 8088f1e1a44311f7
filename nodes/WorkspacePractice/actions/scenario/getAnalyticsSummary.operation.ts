import type { IDataObject } from 'n8n-workflow';

import { apiRequest } from '../../../shared/transport';
import { forOperation, type OperationModule } from '../../../shared/operations/operation';
import { analyticsFilterFields } from './analytics.filters';
import { filtersCollection, readFilters } from '../../../shared/fields/filter.fields';
import { readScenarioRef, scenarioLocator, scenarioPath } from './scenario.locator';

export const description = forOperation('scenario', 'getAnalyticsSummary', [
	scenarioLocator(true),
	filtersCollection(analyticsFilterFields),
]);

export const execute: OperationModule['execute'] = async function (itemIndex) {
	const { ref } = readScenarioRef(this, itemIndex);
	const qs = readFilters(this, itemIndex, analyticsFilterFields);
	return await apiRequest<IDataObject>(this, {
		method: 'GET',
		path: scenarioPath(ref, '/analytics/summary'),
		qs,
		itemIndex,
		what: `scenario ${ref}`,
	}).then(({ body }) => body);
};
