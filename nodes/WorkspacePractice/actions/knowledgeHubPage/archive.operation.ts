import { archiveByIdOperation } from '../../../shared/operations/byIdOperation';
import { pageLocator } from './page.locator';

export const { description, execute } = archiveByIdOperation({
	resource: 'knowledgeHubPage',
	operation: 'archive',
	locator: pageLocator({
		description:
			'The page to archive. It disappears from lists but its version history is kept. Pick it from the list or give its UUID.',
	}),
	label: 'Page',
	path: '/knowledge-hub/pages',
});
