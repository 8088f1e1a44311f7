import { getByIdOperation } from '../../../shared/operations/byIdOperation';
import { pageLocator } from './page.locator';

export const { description, execute } = getByIdOperation({
	resource: 'knowledgeHubPage',
	operation: 'get',
	locator: pageLocator({
		description: 'The page to get. Pick it from the list (search by title) or give its UUID.',
	}),
	label: 'Page',
	path: '/knowledge-hub/pages',
	more: [
		{
			displayName: 'Options',
			name: 'options',
			type: 'collection',
			placeholder: 'Add Option',
			default: {},
			options: [
				{
					displayName: 'Include Draft',
					name: 'includeDraft',
					type: 'boolean',
					default: false,
					description:
						'Whether to add the unpublished draft (its title and Markdown content) under "draft"; the published body is always in "content"',
				},
			],
		},
	],
	includes: { includeDraft: 'draft' },
});
