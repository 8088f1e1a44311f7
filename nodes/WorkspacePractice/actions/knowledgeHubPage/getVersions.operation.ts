import { readUuidLocator } from '../../../shared/fields/locator';
import { listOperation } from '../../../shared/operations/listOperation';
import { pageLocator } from './page.locator';

export const { description, execute } = listOperation(
	'knowledgeHubPage',
	(ctx, itemIndex) =>
		`/knowledge-hub/pages/${encodeURIComponent(readUuidLocator(ctx, itemIndex, 'pageId', 'Page ID'))}/versions`,
	[],
	{
		operation: 'getVersions',
		lead: [
			pageLocator({ description: 'The page whose version history to list (newest version first)' }),
		],
	},
);
