import type { IDataObject } from 'n8n-workflow';

import { validator } from '../../../shared/validate';
import { apiRequest } from '../../../shared/transport';
import { forOperation, type OperationModule } from '../../../shared/operations/operation';
import { readScenarioId, scenarioLocator, scenarioPath } from './scenario.locator';
import { memberEmailField, readMemberEmail } from '../fields';

export const description = forOperation('scenario', 'grantAccess', [
	scenarioLocator(false),
	memberEmailField('to give access to,'),
	{
		displayName: 'Permission Level',
		name: 'permissionLevel',
		type: 'options',
		required: true,
		options: [
			{ name: 'View', value: 'view', description: 'Can open and practice the scenario' },
			{ name: 'Share', value: 'share', description: 'Can view and share it with others' },
			{
				name: 'Monitor',
				value: 'monitor',
				description: "Can view it and see others' results on it",
			},
			{ name: 'Edit', value: 'edit', description: 'Can view, share, monitor and change it' },
		],
		default: 'view',
		description: 'What the person may do with the scenario',
	},
]);

export const execute: OperationModule['execute'] = async function (itemIndex) {
	const v = validator(this, itemIndex);
	const userEmail = readMemberEmail(this, itemIndex);
	const level = v.required(
		'Permission Level',
		this.getNodeParameter('permissionLevel', itemIndex, 'view'),
	);
	const scenarioId = await readScenarioId(this, itemIndex);
	return await apiRequest<IDataObject>(this, {
		method: 'POST',
		path: scenarioPath(scenarioId, '/access'),
		body: { user_email: userEmail, permission_level: level },
		itemIndex,
		what: `scenario ${scenarioId}`,
	}).then(({ body }) => body);
};
