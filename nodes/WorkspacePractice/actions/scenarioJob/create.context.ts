import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { unwrapLocator } from '../../../shared/fields/locator';
import { pageContext, type PageBody } from '../../../shared/knowledgeHub/pageContext';
import { isToolContext } from '../../../shared/toolContext';
import { sharedInRun } from '../../../shared/transport';
import { validator } from '../../../shared/validate';
import { CONTEXT_MAX } from './create.fields';

/** The form's pages, checked (at least one, each a UUID); undefined for Context From: Text. */
export function checkContextForm(ctx: IExecuteFunctions, itemIndex: number) {
	const check = validator(ctx, itemIndex);
	const from = String(ctx.getNodeParameter('contextFrom', itemIndex, 'text'));
	if (from === 'text') return undefined;
	const rows = ctx.getNodeParameter('contextPages.page', itemIndex, []) as IDataObject[];
	const pageIds = (Array.isArray(rows) ? rows : []).map((row, n) =>
		check.uuid(`Context Pages (row ${n + 1})`, unwrapLocator(row.page).value),
	);
	if (pageIds.length === 0) check.fail('Context Pages', 'must list at least one page');
	const body = String(ctx.getNodeParameter('contextPageBody', itemIndex, 'published')) as PageBody;
	return { pageIds, body };
}

type Prepared = { context: string } | { error: unknown };

/** Every item's page context, in input order; an item's problem is kept as its error. */
async function prepareRun(ctx: IExecuteFunctions): Promise<Map<number, Prepared>> {
	const prepared = new Map<number, Prepared>();
	const count = ctx.getInputData().length;
	for (let itemIndex = 0; itemIndex < count; itemIndex++) {
		try {
			const form = checkContextForm(ctx, itemIndex);
			if (form === undefined) continue;
			const lead = ctx.getNodeParameter('additionalFields.context', itemIndex, '');
			const context = await pageContext(
				ctx,
				form.pageIds,
				form.body,
				typeof lead === 'string' ? lead : '',
				CONTEXT_MAX,
				itemIndex,
			);
			prepared.set(itemIndex, { context });
		} catch (error) {
			prepared.set(itemIndex, { error });
		}
	}
	return prepared;
}

/**
 * The body with the pages' context. The run's first call reads every item's pages before any job is
 * created: without Continue On Fail one item's problem stops the run with nothing created.
 */
export async function withContext(
	ctx: IExecuteFunctions,
	body: IDataObject,
	itemIndex: number,
): Promise<IDataObject> {
	// A tool call is one item of its own; its inputs come from the model, so it is read for itself.
	if (isToolContext(ctx)) {
		const form = checkContextForm(ctx, itemIndex);
		if (form === undefined) return body;
		const lead = typeof body.context === 'string' ? body.context : '';
		const context = await pageContext(ctx, form.pageIds, form.body, lead, CONTEXT_MAX, itemIndex);
		return { ...body, context };
	}
	const prepared = await sharedInRun(ctx, 'scenarioJob.pageContexts', () => prepareRun(ctx));
	if (!ctx.continueOnFail()) {
		const failed = [...prepared.values()].find((p): p is { error: unknown } => 'error' in p);
		if (failed) throw failed.error;
	}
	const mine = prepared.get(itemIndex);
	if (mine === undefined) return body;
	if ('error' in mine) throw mine.error;
	return { ...body, context: mine.context };
}
