/**
 * Knowledge Hub Page → Create or Update run active (the node's memory kept in static data, as n8n
 * keeps an active workflow's): a changed file on a page that has not moved since the node last left
 * it is written without reading the page first (issue 40); a page moved on the service, or a memory
 * of an older format, is read first as before.
 */
import type { IDataObject } from 'n8n-workflow';

import { SEED } from '../../simulator';
import { publishedVersion } from '../../simulator/state/render';
import { json, rl, useSimulator } from './support';

const { folders, skills } = SEED;

const sim = useSimulator('knowledgeHubPage');
const { run } = sim;
const requests = () => sim.control.requests({ path: '/knowledge-hub/*' });
const listReads = () =>
	requests().filter((r) => r.method === 'GET' && r.path === '/knowledge-hub/pages');
/** The requests beyond the folder's page list, as [method, body]. */
const beyondList = () =>
	requests()
		.filter((r) => !(r.method === 'GET' && r.path === '/knowledge-hub/pages'))
		.map((r) => [r.method, r.body ?? null]);
const pageTitled = (title: string) => {
	const found = sim.control.store.data.pages.filter(
		(p) => p.title === title && p.status !== 'archived',
	);
	expect(found).toHaveLength(1);
	return found[0];
};

const doc = (title: string, text: string): IDataObject => ({ title, text });
const docs = (changed: Record<number, string> = {}) =>
	[0, 1, 2].map((i) => doc(`Doc ${i}`, changed[i] ?? `# Doc ${i}\n`));

const form = (extra: IDataObject = {}, options: IDataObject = {}) => ({
	operation: 'createOrUpdate',
	title: '={{ $json.title }}',
	content: '={{ $json.text }}',
	options: { withinFolder: rl(folders.sales.id), ...options },
	// Pacing off: the figures are request counts, not the minute's pace.
	batching: { requestsPerMinute: 0 },
	...extra,
});

/** One active run (static data kept); its results. */
const activeRun = async (
	input: IDataObject[],
	staticData: IDataObject,
	extra: IDataObject = {},
	options: IDataObject = {},
) => {
	sim.control.clearRequests();
	const { items, error } = await run(form(extra, options), {
		input,
		staticData,
		mode: 'trigger',
	});
	expect(error).toBeUndefined();
	return json(items);
};

/** The node's memory inside the workflow's static data. */
const memoryIn = (staticData: IDataObject): Record<string, unknown> => {
	const nodeData = Object.values(staticData).find(
		(value) => (value as IDataObject)?.pageSync !== undefined,
	) as IDataObject;
	return nodeData.pageSync as Record<string, unknown>;
};

describe('Create or Update, active: a changed file on a page as the node left it', () => {
	test('one PATCH beyond the folder list, no read; the page ends published with the new text', async () => {
		const staticData: IDataObject = {};
		expect((await activeRun(docs(), staticData)).map((i) => i.sync_result)).toEqual(
			Array(3).fill('created'),
		);

		const changed = await activeRun(docs({ 1: '# Doc 1\n\nChanged.\n' }), staticData);
		expect(changed.map((i) => i.sync_result)).toEqual(['unchanged', 'updated', 'unchanged']);
		expect(listReads()).toHaveLength(1);
		expect(beyondList()).toEqual([
			['PATCH', { content: '# Doc 1\n\nChanged.\n', status: 'published' }],
		]);
		const page = pageTitled('Doc 1');
		expect(page.status).toBe('published');
		expect(page.draft).toBeNull();
		expect(publishedVersion(page)?.content).toBe('# Doc 1\n\nChanged.\n');
		expect(page.versions).toHaveLength(2);
		// The output is the page as the service answered the update, as before.
		expect(changed[1]).toMatchObject({ id: page.id, content: '# Doc 1\n\nChanged.\n', version: 2 });

		// Unchanged again: the folder list only, no write.
		const again = await activeRun(docs({ 1: '# Doc 1\n\nChanged.\n' }), staticData);
		expect(again.map((i) => i.sync_result)).toEqual(Array(3).fill('unchanged'));
		expect(beyondList()).toEqual([]);

		// Spaces at line ends and CRLF only: the same text, nothing sent.
		const sameText = await activeRun(docs({ 1: '# Doc 1  \r\n\r\nChanged. \r\n' }), staticData);
		expect(sameText.map((i) => i.sync_result)).toEqual(Array(3).fill('unchanged'));
		expect(beyondList()).toEqual([]);
		expect(pageTitled('Doc 1').versions).toHaveLength(2);
	});

	test('as a draft, then published (a draft saved in the same second not), then a skill linked: one PATCH each, no read', async () => {
		const staticData: IDataObject = {};
		await activeRun(docs(), staticData, { publish: false });

		await activeRun(docs({ 0: '# Draft\n' }), staticData, { publish: false });
		expect(beyondList()).toEqual([['PATCH', { content: '# Draft\n' }]]);
		expect(pageTitled('Doc 0').draft?.content).toBe('# Draft\n');
		expect(pageTitled('Doc 0').versions).toHaveLength(0);

		// Same text, now published: the text is sent with the status, so a draft saved by someone
		// else in the second of the last write (the row would not show it) is never what is published.
		sim.control.updatePage(pageTitled('Doc 0').id, { content: 'Saved in the same second' });
		const published = await activeRun(docs({ 0: '# Draft\n' }), staticData);
		expect(published.map((i) => i.sync_result)).toEqual(['updated', 'updated', 'updated']);
		expect(beyondList()).toEqual([
			['PATCH', { content: '# Draft\n', status: 'published' }],
			['PATCH', { content: '# Doc 1\n', status: 'published' }],
			['PATCH', { content: '# Doc 2\n', status: 'published' }],
		]);
		expect(pageTitled('Doc 0').versions).toHaveLength(1);
		expect(publishedVersion(pageTitled('Doc 0'))?.content).toBe('# Draft\n');

		const skill = { skill_ids: [skills.negotiation.id] };
		await activeRun(docs({ 0: '# Draft\n' }), staticData, {}, skill);
		expect(beyondList()).toEqual(Array(3).fill(['PATCH', skill]));
		expect(pageTitled('Doc 2').skillIds).toEqual([skills.negotiation.id]);

		// Back to a draft with the published text: nothing to send (the draft is the published body).
		await activeRun(docs({ 0: '# Draft\n' }), staticData, { publish: false }, skill);
		expect(beyondList()).toEqual([]);
	});

	test('a draft saved in the app since the last sync: the page is read, then written right', async () => {
		const staticData: IDataObject = {};
		await activeRun(docs(), staticData);
		sim.control.advance(60_000);
		sim.control.updatePage(pageTitled('Doc 2').id, { content: 'Edited in the app' });

		const changed = await activeRun(docs({ 2: '# Doc 2, new\n' }), staticData);
		expect(changed[2].sync_result).toBe('updated');
		const page = pageTitled('Doc 2');
		expect(beyondList()).toEqual([
			['GET', null],
			['PATCH', { content: '# Doc 2, new\n', status: 'published' }],
		]);
		expect(publishedVersion(page)?.content).toBe('# Doc 2, new\n');
		expect(page.draft).toBeNull();

		// Published in the app with the file unchanged: read, and the file's text put back.
		sim.control.advance(60_000);
		sim.control.updatePage(page.id, { content: 'Published in the app', status: 'published' });
		await activeRun(docs({ 2: '# Doc 2, new\n' }), staticData);
		expect(beyondList()).toEqual([
			['GET', null],
			['PATCH', { content: '# Doc 2, new\n', status: 'published' }],
		]);
		expect(publishedVersion(pageTitled('Doc 2'))?.content).toBe('# Doc 2, new\n');
	});

	test('a memory of an older format: each page is read once, then remembered anew', async () => {
		const staticData: IDataObject = {};
		await activeRun(docs(), staticData);
		// Entries as the previous format kept them (one fingerprint each), and a damaged one.
		const memory = memoryIn(staticData);
		const keys = Object.keys(memory);
		expect(keys).toHaveLength(3);
		memory[keys[0]] = 'AbCdEfGhIjKlMnOp';
		memory[keys[1]] = 'QrStUvWxYz012345';
		memory[keys[2]] = null;

		const changed = await activeRun(docs({ 1: '# Doc 1, new\n' }), staticData);
		expect(changed.map((i) => i.sync_result)).toEqual(['unchanged', 'updated', 'unchanged']);
		expect(beyondList().map(([method]) => method)).toEqual(['GET', 'GET', 'GET', 'PATCH']);
		expect(publishedVersion(pageTitled('Doc 1'))?.content).toBe('# Doc 1, new\n');
		expect(pageTitled('Doc 0').versions).toHaveLength(1);

		const again = await activeRun(docs({ 1: '# Doc 1, new\n' }), staticData);
		expect(again.map((i) => i.sync_result)).toEqual(Array(3).fill('unchanged'));
		expect(beyondList()).toEqual([]);
		expect(Object.keys(memoryIn(staticData))).toHaveLength(3);
	});

	test.each([1, 10])(
		'items sharing a title, %i in parallel: the last one changed is one PATCH of its text',
		async (parallel) => {
			const staticData: IDataObject = {};
			const twins = (last: string) => [
				doc('Twin', '# First\n'),
				doc('Doc 0', '# Doc 0\n'),
				doc('Twin', last),
			];
			const batching = { itemsInParallel: parallel, requestsPerMinute: 0 };
			await activeRun(twins('# Last\n'), staticData, { batching });

			const changed = await activeRun(twins('# Last, new\n'), staticData, { batching });
			expect(changed.map((i) => i.sync_result)).toEqual(['unchanged', 'unchanged', 'updated']);
			expect(beyondList()).toEqual([['PATCH', { content: '# Last, new\n', status: 'published' }]]);
			expect(publishedVersion(pageTitled('Twin'))?.content).toBe('# Last, new\n');
		},
	);
});
