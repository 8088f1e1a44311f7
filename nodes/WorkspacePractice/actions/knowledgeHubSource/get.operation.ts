import { getByIdOperation } from '../../../shared/operations/byIdOperation';
import { sourceLocator } from './source.locator';

export const { description, execute } = getByIdOperation({
	resource: 'knowledgeHubSource',
	operation: 'get',
	locator: sourceLocator({
		description: 'The source to get. Pick it from the list (search by title) or give its UUID.',
	}),
	label: 'Source',
	path: '/knowledge-hub/sources',
	more: [
		{
			displayName: 'Options',
			name: 'options',
			type: 'collection',
			placeholder: 'Add Option',
			default: {},
			options: [
				{
					displayName: 'Include Content',
					name: 'includeContent',
					type: 'boolean',
					default: false,
					description:
						'Whether to add the extracted text under "content". It is read from storage and can be large, so it is off by default.',
				},
			],
		},
	],
	includes: { includeContent: 'content' },
});
