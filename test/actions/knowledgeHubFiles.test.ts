import type { IBinaryData, IDataObject, INodeExecutionData } from 'n8n-workflow';

import { SEED } from '../../simulator';
import { json, rl, useSimulator } from './support';

const { pages, sources } = SEED;

const sim = useSimulator('knowledgeHubPage');
const { run } = sim;
const requests = () => sim.control.requests({ path: '/knowledge-hub/*' });

/** An input item carrying one file, as n8n's Read Files from Disk gives it. */
const fileItem = (text: string, mimeType: string, fileName: string, property = 'data') => ({
	$binary: {
		[property]: { data: Buffer.from(text, 'utf8').toString('base64'), mimeType, fileName },
	},
});

const fileOf = (item: INodeExecutionData, property = 'data'): IBinaryData & { text: string } => {
	const file = item.binary?.[property];
	if (!file) throw new Error(`no binary property ${property}`);
	return { ...file, text: Buffer.from(file.data, 'base64').toString('utf8') };
};

describe('files in: page content from a binary property', () => {
	test('Create or Update from a Markdown file (text/markdown)', async () => {
		const { items, error } = await run(
			{ operation: 'createOrUpdate', title: 'From file', contentFrom: 'binary' },
			{ input: [fileItem('\uFEFF# From file\n\nBody', 'text/markdown', 'from-file.md')] },
		);
		expect(error).toBeUndefined();
		expect(requests().find((r) => r.method === 'POST')?.body).toMatchObject({
			content: '# From file\n\nBody',
		});
		expect(json(items)[0].sync_result).toBe('created');
	});

	test('Create from a plain-text file in another property; a generic MIME type with .md is read too', async () => {
		const text = await run(
			{ operation: 'create', title: 'Notes', contentFrom: 'binary', binaryPropertyName: 'file' },
			{ input: [fileItem('plain notes', 'text/plain', 'notes.txt', 'file')] },
		);
		expect(text.error).toBeUndefined();
		const generic = await run(
			{ operation: 'create', title: 'Generic', contentFrom: 'binary' },
			{ input: [fileItem('# Generic', 'application/octet-stream', 'generic.md')] },
		);
		expect(generic.error).toBeUndefined();
		expect(requests().map((r) => (r.body as IDataObject).content)).toEqual([
			'plain notes',
			'# Generic',
		]);
	});

	test('Update takes the file as the new draft', async () => {
		const { error } = await run(
			{
				operation: 'update',
				pageId: rl(pages.published.id),
				contentFrom: 'binary',
				updateFields: { status: 'published' },
			},
			{ input: [fileItem('# New body', 'text/x-markdown', 'new.markdown')] },
		);
		expect(error).toBeUndefined();
		expect(requests()[0].body).toEqual({ content: '# New body', status: 'published' });
	});

	test('a PDF is refused naming the property and its MIME type, before any request', async () => {
		const { error } = await run(
			{ operation: 'createOrUpdate', title: 'Deck', contentFrom: 'binary' },
			{ input: [fileItem('%PDF-1.7', 'application/pdf', 'deck.pdf')] },
		);
		expect(error?.message).toBe(
			'Input Binary Field: the file "deck.pdf" in binary property "data" has MIME type "application/pdf"; only Markdown (text/markdown, .md) or plain text (text/plain, .txt) can become page content',
		);
		expect(requests()).toHaveLength(0);
	});

	test('a missing property and a generic MIME type without a text extension are refused', async () => {
		const missing = await run(
			{ operation: 'create', title: 'x', contentFrom: 'binary', binaryPropertyName: 'doc' },
			{ input: [fileItem('x', 'text/plain', 'x.txt')] },
		);
		expect(missing.error?.message).toBe(
			'Input Binary Field: the input item has no binary property "doc" (it has: data)',
		);
		const blob = await run(
			{ operation: 'create', title: 'x', contentFrom: 'binary' },
			{ input: [fileItem('x', 'application/octet-stream', 'x.bin')] },
		);
		expect(blob.error?.message).toMatch(/has MIME type "application\/octet-stream"/);
		expect(requests()).toHaveLength(0);
	});
});

describe('files out: Get puts Markdown or text into a binary property', () => {
	test('Page → Get, Published Markdown: a .md file named after the title', async () => {
		const { items, error } = await run({
			operation: 'get',
			pageId: rl(pages.published.id),
			fileOutput: 'published',
		});
		expect(error).toBeUndefined();
		const page = json(items)[0];
		const file = fileOf(items[0]);
		expect(file.text).toBe(page.content);
		expect(file.mimeType).toBe('text/markdown');
		expect(file.fileName).toBe(`${String(page.title)}.md`);
		expect(requests()[0].query).toEqual({});
	});

	test('Page → Get, Draft Markdown: reads include=draft and writes the draft to the named property', async () => {
		sim.control.updatePage(pages.published.id, { content: 'Draft: A/B pricing?' });
		const { items } = await run({
			operation: 'get',
			pageId: rl(pages.published.id),
			fileOutput: 'draft',
			binaryPropertyName: 'markdown',
		});
		expect(requests()[0].query).toEqual({ include: 'draft' });
		const file = fileOf(items[0], 'markdown');
		expect(file.text).toBe('Draft: A/B pricing?');
	});

	test('Page → Get, Published Markdown of a never-published page: a clear error', async () => {
		const { error } = await run({
			operation: 'get',
			pageId: rl(pages.draftNeverPublished.id),
			fileOutput: 'published',
		});
		expect(error?.message).toMatch(/^Output as File: page ".+" \(.+\) has no published Markdown$/);
		expect(error?.description).toMatch(/Draft Markdown/);
	});

	test('Source → Get, Output Text as File: the extracted text as a file; the record without it', async () => {
		const { items, error } = await run({
			resource: 'knowledgeHubSource',
			operation: 'get',
			sourceId: rl(sources.uploadReady.id),
			textAsFile: true,
		});
		expect(error).toBeUndefined();
		expect(requests()[0].query).toEqual({ include: 'content' });
		const file = fileOf(items[0]);
		expect(file.text).toBe(
			`# ${sources.uploadReady.name}\n\nExtracted text of ${sources.uploadReady.name}.`,
		);
		expect(file.fileName).toMatch(/\.(md|txt)$/);
		expect(json(items)[0]).not.toHaveProperty('content');
	});

	test('Source → Get of a source still pending: a clear error naming it', async () => {
		const { error } = await run({
			resource: 'knowledgeHubSource',
			operation: 'get',
			sourceId: rl(sources.guruPending.id),
			textAsFile: true,
		});
		expect(error?.message).toMatch(/has no extracted text; its status is "pending"$/);
	});
});
