import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { validator } from '../../../shared/validate';
import { apiRequest } from '../../../shared/transport';
import { forOperation } from '../../../shared/operations/operation';
import type { OperationResult } from '../../../shared/operations/operation';
import { readScenarioId, scenarioLocator, scenarioPath } from './scenario.locator';

const fields: INodeProperties[] = [
	scenarioLocator(false),
	{
		displayName: 'User Name or ID',
		name: 'userEmail',
		type: 'options',
		typeOptions: { loadOptionsMethod: 'getMemberEmails' },
		default: '',
		required: true,
		description:
			'The workspace member whose access to check, given by e-mail address. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
	},
];

export const description = forOperation('scenario', 'checkAccess', fields);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<OperationResult> {
	const v = validator(this, itemIndex);
	const userEmail = v.email('User', this.getNodeParameter('userEmail', itemIndex, ''));
	const scenarioId = await readScenarioId(this, itemIndex);
	const { body } = await apiRequest<IDataObject>(this, {
		method: 'GET',
		path: scenarioPath(scenarioId, '/access'),
		qs: { user_email: userEmail },
		itemIndex,
		what: `scenario ${scenarioId}`,
	});
	return body;
}
