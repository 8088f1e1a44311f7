import type { IDataObject } from 'n8n-workflow';

import { memberLocator, optionalMember } from '../../../shared/fields/member.locator';
import { validator } from '../../../shared/validate';
import { hasText } from '../../../shared/values';
import { apiRequest } from '../../../shared/transport';
import { forOperation, type OperationModule } from '../../../shared/operations/operation';
import { readScenarioId, scenarioLocator, scenarioPath } from './scenario.locator';
import { additionalFields, memberEmailField, readMemberEmail } from '../fields';

const MAX_ATTEMPTS = 1_000_000;

export const description = forOperation('scenario', 'assign', [
	scenarioLocator(false),
	memberEmailField('who gets the assignment,'),
	{
		displayName: 'Due Date',
		name: 'dueDate',
		type: 'dateTime',
		required: true,
		default: '',
		description:
			'When the assignment is due (ISO 8601 date-time; include a zone such as Z to be exact)',
	},
	additionalFields([
		memberLocator({
			displayName: 'Assigner',
			name: 'assigner_email',
			kind: 'email',
			description:
				'The member handing out the assignment, named in the notification e-mail, by e-mail: pick them from the list or type the address (By Email)',
		}),
		{
			displayName: 'Custom Message',
			name: 'custom_message',
			type: 'string',
			typeOptions: { rows: 3 },
			default: '',
			description: 'A note for the person, sent with the assignment notification',
		},
		{
			displayName: 'Maximum Attempts',
			name: 'attempt_max',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 5,
			description:
				'How many attempts the person may make at most; leave this field out for no maximum',
		},
		{
			displayName: 'Minimum Attempts',
			name: 'attempt_min',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 1,
			description: 'How many attempts the person must make',
		},
		{
			displayName: 'Minimum Rank',
			name: 'rank_min',
			type: 'options',
			options: [
				{ name: 'Gold', value: 'gold' },
				{ name: 'Silver', value: 'silver' },
				{ name: 'Bronze', value: 'bronze' },
			],
			default: 'bronze',
			description: 'The rank an attempt must reach for the assignment to count as completed',
		},
	]),
]);

export const execute: OperationModule['execute'] = async function (itemIndex) {
	const v = validator(this, itemIndex);
	const extra = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	const body: IDataObject = {
		user_email: readMemberEmail(this, itemIndex),
		due_date: v.dateTime('Due Date', this.getNodeParameter('dueDate', itemIndex, '')),
	};
	const assigner = optionalMember(v, 'Assigner', extra.assigner_email, 'email');
	if (assigner !== undefined) body.assigner_email = assigner;
	if (extra.attempt_min !== undefined)
		body.attempt_min = v.intRange('Minimum Attempts', extra.attempt_min, 1, MAX_ATTEMPTS);
	if (extra.attempt_max !== undefined)
		body.attempt_max = v.intRange('Maximum Attempts', extra.attempt_max, 1, MAX_ATTEMPTS);
	v.ordered(
		'Maximum Attempts',
		body.attempt_min as number | undefined,
		body.attempt_max as number | undefined,
		'must not be less than Minimum Attempts',
	);
	if (extra.rank_min !== undefined && extra.rank_min !== '') body.rank_min = String(extra.rank_min);
	if (hasText(extra.custom_message)) body.custom_message = extra.custom_message;
	const scenarioId = await readScenarioId(this, itemIndex);
	return await apiRequest<IDataObject>(this, {
		method: 'POST',
		path: scenarioPath(scenarioId, '/assignments'),
		body,
		itemIndex,
		what: `scenario ${scenarioId}`,
	}).then(({ body }) => body);
};
