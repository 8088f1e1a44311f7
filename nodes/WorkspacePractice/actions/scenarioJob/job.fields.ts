import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { locator, readLocator } from '../../../shared/fields/locator';

/** The job to read or cancel. By ID only: the API has no endpoint that lists jobs. */
export const jobIdField: INodeProperties = locator({
	displayName: 'Job ID',
	name: 'jobId',
	required: true,
	description: 'The scenario job, by the ID that Create returned',
	hint: 'The API has no endpoint that lists jobs, so give the ID, e.g. from the Create step: {{ $json.id }}',
	modes: [
		{
			displayName: 'By ID',
			name: 'id',
			type: 'string',
			placeholder: 'e.g. j1o2b3i4d5x6',
			validation: [
				{
					type: 'regex',
					properties: { regex: '^\\S+$', errorMessage: 'A job ID has no spaces' },
				},
			],
		},
	],
});

export function readJobId(ctx: IExecuteFunctions, itemIndex: number): string {
	return readLocator(ctx, itemIndex, 'jobId', 'Job ID').value;
}
