import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { apiRequest } from '../../../shared/transport';
import { forOperation, type OperationModule } from '../../../shared/operations/operation';
import { analyticsFilterFields, analyticsFilters } from './analytics.filters';
import { readFilters } from '../../../shared/fields/filter.fields';
import { readScenarioRef, scenarioLocator, scenarioPath } from './scenario.locator';

const fields: INodeProperties[] = [scenarioLocator(true), analyticsFilters];

export const description = forOperation('scenario', 'getAnalyticsSummary', fields);

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
