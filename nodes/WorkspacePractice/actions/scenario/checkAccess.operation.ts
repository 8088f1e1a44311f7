import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { requiredMemberEmail, memberLocator } from '../../../shared/fields/member.locator';
import { validator } from '../../../shared/validate';
import { apiRequest } from '../../../shared/transport';
import { forOperation, type OperationModule } from '../../../shared/operations/operation';
import { readScenarioId, scenarioLocator, scenarioPath } from './scenario.locator';

const fields: INodeProperties[] = [
	scenarioLocator(false),
	memberLocator({
		displayName: 'Member',
		name: 'userEmail',
		kind: 'email',
		required: true,
		description:
			'The workspace member whose access to check, by e-mail: pick them from the list or type the address (By Email)',
	}),
];

export const description = forOperation('scenario', 'checkAccess', fields);

export const execute: OperationModule['execute'] = async function (itemIndex) {
	const v = validator(this, itemIndex);
	const userEmail = requiredMemberEmail(
		v,
		'Member',
		this.getNodeParameter('userEmail', itemIndex, ''),
	);
	const scenarioId = await readScenarioId(this, itemIndex);
	const { body } = await apiRequest<IDataObject>(this, {
		method: 'GET',
		path: scenarioPath(scenarioId, '/access'),
		qs: { user_email: userEmail },
		itemIndex,
		what: `scenario ${scenarioId}`,
	});
	return body;
};
