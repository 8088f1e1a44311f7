import type { IDataObject } from 'n8n-workflow';

import { apiRequest } from '../../../shared/transport';
import { forOperation, type OperationModule } from '../../../shared/operations/operation';
import { locator, readLocator } from '../../../shared/fields/locator';
import { optionsField } from '../fields';

export const description = forOperation('session', 'get', [
	locator({
		displayName: 'Session ID',
		name: 'session',
		required: true,
		description:
			'The roleplay practice session: pick it from the list (newest first) or give its ID',
		list: { searchListMethod: 'searchSessions' },
		modes: [
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: 'e.g. 0b7e6a52-3c1d-4f8e-9a2b-5d6c7e8f9012',
			},
		],
	}),
	optionsField([
		{
			displayName: 'Include Evaluations',
			name: 'includeEvaluations',
			type: 'boolean',
			default: true,
			description: 'Whether to add the rubric criteria with their grades and feedback',
		},
		{
			displayName: 'Include Transcript',
			name: 'includeTranscript',
			type: 'boolean',
			default: true,
			description: 'Whether to add the conversation, line by line with speaker and time',
		},
	]),
]);

export const execute: OperationModule['execute'] = async function (itemIndex) {
	const { value: sessionId } = readLocator(this, itemIndex, 'session', 'Session ID');
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const include = [
		options.includeTranscript === true ? 'transcript' : undefined,
		options.includeEvaluations === true ? 'evaluations' : undefined,
	].filter((value): value is string => value !== undefined);
	return await apiRequest<IDataObject>(this, {
		method: 'GET',
		path: `/sessions/${encodeURIComponent(sessionId)}`,
		qs: include.length ? { include: include.join(',') } : undefined,
		itemIndex,
		what: `session ${sessionId}`,
	}).then(({ body }) => body);
};
