import type { IDataObject } from 'n8n-workflow';

import { apiRequest, withIsNew } from '../../../shared/transport';
import { validator } from '../../../shared/validate';
import { hasText } from '../../../shared/values';
import { forOperation, type OperationModule } from '../../../shared/operations/operation';
import { additionalFields, memberEmailField, readMemberEmail } from '../fields';

export const description = forOperation('studioSession', 'create', [
	memberEmailField('the session is for, who opens the returned URL;'),
	{
		displayName: 'Prompt',
		name: 'prompt',
		type: 'string',
		typeOptions: { rows: 4 },
		required: true,
		default: '',
		placeholder: 'e.g. A discovery call with a skeptical IT director at a mid-size bank',
		description:
			'Meeting context or scenario request for the AI agent. The session starts with it, so the agent begins working as soon as the user opens the URL.',
	},
	additionalFields([
		{
			displayName: 'Request ID',
			name: 'request_id',
			type: 'string',
			default: '',
			placeholder: 'e.g. meeting-123-scenario',
			description:
				'Your own key for this session. Sending the same key again returns the session created the first time (with "is_new" false) instead of a second one.',
		},
	]),
]);

export const execute: OperationModule['execute'] = async function (itemIndex) {
	const check = validator(this, itemIndex);
	const userEmail = readMemberEmail(this, itemIndex);
	const prompt = check.required('Prompt', this.getNodeParameter('prompt', itemIndex, ''));
	const additional = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	const body: IDataObject = { user_email: userEmail, prompt };
	if (hasText(additional.request_id)) body.request_id = additional.request_id.trim();
	const response = await apiRequest<IDataObject>(this, {
		method: 'POST',
		path: '/scenario-studio',
		body,
		// With a request_id a repeat cannot open a second session, so a failed attempt may be retried.
		idempotent: body.request_id !== undefined,
		itemIndex,
	});
	return withIsNew(response);
};
