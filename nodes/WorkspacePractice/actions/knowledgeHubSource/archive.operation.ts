import { archiveByIdOperation } from '../../../shared/operations/byIdOperation';
import { sourceLocator } from './source.locator';

export const { description, execute } = archiveByIdOperation({
	resource: 'knowledgeHubSource',
	operation: 'archive',
	locator: sourceLocator({
		description:
			'The source to archive (a soft delete: it leaves lists and pages). Pick it from the list or give its UUID.',
	}),
	label: 'Source',
	path: '/knowledge-hub/sources',
});
