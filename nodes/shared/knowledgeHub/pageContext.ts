import type { IDataObject, INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { TransportContext } from '../transport';
import { apiRequest } from '../transport';
import { itemRef } from '../values';

/** Knowledge Hub pages as a job's context: each body under its title as a heading. */

export type PageBody = 'published' | 'draft';

interface PageSection {
	id: string;
	title: string;
	/** Heading and body. */
	markdown: string;
}

/** One page's section; a page without the body asked for is refused. */
async function readSection(
	ctx: TransportContext & { getNode(): INode },
	pageId: string,
	body: PageBody,
	itemIndex: number,
): Promise<PageSection> {
	const { body: page } = await apiRequest<IDataObject>(ctx, {
		method: 'GET',
		path: `/knowledge-hub/pages/${pageId}`,
		qs: body === 'draft' ? { include: 'draft' } : {},
		itemIndex,
	});
	const draft = page.draft as IDataObject | undefined | null;
	const title = String((body === 'draft' ? draft?.title : undefined) ?? page.title ?? pageId);
	const text = body === 'draft' ? (draft?.content ?? page.content) : page.content;
	if (typeof text !== 'string' || text.trim() === '') {
		const what = body === 'draft' ? 'neither a draft nor a published body' : 'no published body';
		throw new NodeOperationError(ctx.getNode(), `Context Pages: "${title}" has ${what}`, {
			itemIndex,
			description: `${itemRef(itemIndex)}: page ${pageId} ${
				body === 'published'
					? 'was never published; publish it or set Page Body to Latest Draft'
					: 'is empty'
			}. No job was created.`,
		});
	}
	return { id: pageId, title, markdown: `# ${title}\n\n${text.trim()}` };
}

/** The context for `pageIds` after `lead`; over `max` characters it throws naming each page's size. */
export async function pageContext(
	ctx: TransportContext & { getNode(): INode },
	pageIds: string[],
	body: PageBody,
	lead: string,
	max: number,
	itemIndex: number,
): Promise<string> {
	const sections: PageSection[] = [];
	for (const pageId of pageIds) sections.push(await readSection(ctx, pageId, body, itemIndex));
	const parts = lead.trim() === '' ? [] : [lead.trim()];
	const context = [...parts, ...sections.map((section) => section.markdown)].join('\n\n');
	if (context.length > max) {
		const sizes = sections
			.map((s) => `"${s.title}" (${s.id}) ${s.markdown.length.toLocaleString('en-US')}`)
			.join('; ');
		const leadSize = parts.length
			? `; the Context text ${parts[0].length.toLocaleString('en-US')}`
			: '';
		throw new NodeOperationError(
			ctx.getNode(),
			`Context Pages: ${context.length.toLocaleString('en-US')} characters, over the ${max.toLocaleString(
				'en-US',
			)} the service takes`,
			{
				itemIndex,
				description: `${itemRef(itemIndex)}: characters per page (title and body): ${sizes}${leadSize}. Choose fewer or shorter pages. No job was created.`,
			},
		);
	}
	return context;
}
