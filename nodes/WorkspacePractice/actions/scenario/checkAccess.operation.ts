import type { IDataObject } from 'n8n-workflow';

import { apiRequest } from '../../../shared/transport';
import { forOperation, type OperationModule } from '../../../shared/operations/operation';
import { readScenarioId, scenarioLocator, scenarioPath } from './scenario.locator';
import { memberEmailField, readMemberEmail } from '../fields';

export const description = forOperation('scenario', 'checkAccess', [
	scenarioLocator(false),
	memberEmailField('whose access to check,'),
]);

export const execute: OperationModule['execute'] = async function (itemIndex) {
	const userEmail = readMemberEmail(this, itemIndex);
	const scenarioId = await readScenarioId(this, itemIndex);
	return await apiRequest<IDataObject>(this, {
		method: 'GET',
		path: scenarioPath(scenarioId, '/access'),
		qs: { user_email: userEmail },
		itemIndex,
		what: `scenario ${scenarioId}`,
	}).then(({ body }) => body);
};
