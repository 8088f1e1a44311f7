import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { unwrapLocator } from '../../../shared/fields/locator';
import type { PageBody } from '../../../shared/knowledgeHub/pageContext';
import { pageContext } from '../../../shared/knowledgeHub/pageContext';
import { validator } from '../../../shared/validate';
import { CONTEXT_MAX } from './create.fields';

/**
 * Create's Context From: the Context text (as always), or Knowledge Hub pages read and joined. The
 * form is checked with the rest of the input (`checkContextForm`, no request); the pages are read
 * just before the job is created (`withContext`), and nothing is created when they are too long.
 */

interface ContextForm {
	pageIds: string[];
	body: PageBody;
}

/** The form's pages, checked (at least one, each a UUID); undefined for Context From: Text. */
export function checkContextForm(
	ctx: IExecuteFunctions,
	itemIndex: number,
): ContextForm | undefined {
	const check = validator(ctx, itemIndex);
	const from = check.oneOf(
		'Context From',
		String(ctx.getNodeParameter('contextFrom', itemIndex, 'text')),
		['text', 'pages'],
	);
	if (from === 'text') return undefined;
	const rows = ctx.getNodeParameter('contextPages.page', itemIndex, []) as IDataObject[];
	const pageIds = (Array.isArray(rows) ? rows : []).map((row, n) =>
		check.uuid(`Context Pages (row ${n + 1})`, unwrapLocator(row.page).value),
	);
	if (pageIds.length === 0) check.fail('Context Pages', 'must list at least one page');
	const body = check.oneOf(
		'Page Body',
		String(ctx.getNodeParameter('contextPageBody', itemIndex, 'published')),
		['published', 'draft'],
	) as PageBody;
	return { pageIds, body };
}

/** The body with the pages' context, read now (one request per page); unchanged for Text. */
export async function withContext(
	ctx: IExecuteFunctions,
	body: IDataObject,
	itemIndex: number,
): Promise<IDataObject> {
	const form = checkContextForm(ctx, itemIndex);
	if (form === undefined) return body;
	const lead = typeof body.context === 'string' ? body.context : '';
	const context = await pageContext(ctx, form.pageIds, form.body, lead, CONTEXT_MAX, itemIndex);
	return { ...body, context };
}
