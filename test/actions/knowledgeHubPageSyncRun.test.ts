/**
 * Knowledge Hub Page → Create or Update over many items in one run: one page per title whatever
 * Items in Parallel, what counts as a change, empty files, and what a re-run costs with and without
 * the node's memory (static data kept between runs, as n8n keeps an active workflow's).
 */
import type { IDataObject } from 'n8n-workflow';

import { SEED } from '../../simulator';
import { json, rl, useSimulator } from './support';

const { folders } = SEED;

const sim = useSimulator('knowledgeHubPage');
const { run } = sim;
const requests = () => sim.control.requests({ path: '/knowledge-hub/*' });
const writes = () => requests().filter((r) => r.method !== 'GET');
const livePages = (title: string) =>
	sim.control.store.data.pages.filter((p) => p.title === title && p.status !== 'archived');

const fileItem = (title: string, text: string, fileName = `${title}.md`): IDataObject => ({
	title,
	$binary: {
		data: {
			data: Buffer.from(text, 'utf8').toString('base64'),
			mimeType: 'text/markdown',
			fileName,
		},
	},
});

const form = (extra: IDataObject = {}) => ({
	operation: 'createOrUpdate',
	title: '={{ $json.title }}',
	contentFrom: 'binary',
	...extra,
});

const guideFiles = () => [
	fileItem('Guide', '# One\n', 'docs/Guide.md'),
	fileItem('Other', '# Other\n'),
	fileItem('Guide', '# Two\n', 'Guide.markdown'),
	fileItem('Guide', '# Three\n', 'api/Guide.md'),
];

/**
 * Twins (issue 39, point 7): items of one run sharing a title give one page holding the last of them
 * in input order; the earlier ones write nothing, so a re-run of the same files writes nothing either
 * (before, each twin wrote its file again on every run: 3 writes and 3 new versions a run here).
 */
describe.each([1, 10])('Create or Update, items sharing a title, %i in parallel', (parallel) => {
	describe.each([
		['without a folder', {}],
		['within a folder', { options: { withinFolder: rl(folders.sales.id) } }],
	])('%s', (_where, extra: IDataObject) => {
		test.each([
			['manual', false],
			['active (static data kept)', true],
		])(
			'%s: one page holding the last file, published once; a re-run writes nothing',
			async (_mode, active) => {
				const staticData: IDataObject | undefined = active ? {} : undefined;
				const sync = async () =>
					await run(
						form({ ...extra, batching: { itemsInParallel: parallel, requestsPerMinute: 0 } }),
						{
							input: guideFiles(),
							staticData,
							mode: active ? 'trigger' : 'manual',
						},
					);

				const first = await sync();
				expect(first.error).toBeUndefined();
				const guides = livePages('Guide');
				expect(guides).toHaveLength(1);
				const guide = sim.control.store.page(guides[0].id);
				expect(guide?.versions).toHaveLength(1);
				expect(json(first.items).map((item) => item.sync_result)).toEqual([
					'unchanged',
					'created',
					'unchanged',
					'created',
				]);
				expect(json(first.items).map((item) => item.id)).toEqual([
					guides[0].id,
					livePages('Other')[0].id,
					guides[0].id,
					guides[0].id,
				]);
				// The last item's text is the page's.
				expect(json(first.items)[3].content).toBe('# Three\n');
				expect(writes().filter((r) => (r.body as IDataObject)?.title !== 'Other')).toHaveLength(1);

				for (let rerun = 0; rerun < 2; rerun++) {
					sim.control.clearRequests();
					const again = await sync();
					expect(again.error).toBeUndefined();
					expect(writes()).toHaveLength(0);
					expect(json(again.items).map((item) => item.sync_result)).toEqual(
						Array(4).fill('unchanged'),
					);
				}
				expect(sim.control.store.page(guides[0].id)?.versions).toHaveLength(1);
				expect(livePages('Guide')).toHaveLength(1);
			},
		);
	});

	test('the last twin refused (an empty file): nothing is written for that title', async () => {
		const { items, error } = await run(
			form({ batching: { itemsInParallel: parallel, requestsPerMinute: 0 } }),
			{
				input: [fileItem('Guide', '# One\n'), fileItem('Guide', '', 'api/Guide.md')],
				continueOnFail: true,
			},
		);
		expect(error).toBeUndefined();
		expect(json(items).map((item) => String(item.error))).toEqual([
			expect.stringMatching(/"api\/Guide\.md".* is empty/),
			expect.stringMatching(/"api\/Guide\.md".* is empty/),
		]);
		expect(writes()).toHaveLength(0);
	});
});

describe('Create or Update: what counts as a change', () => {
	test('spaces at line ends added or removed (a hard break alone too): nothing written', async () => {
		await run(form(), { input: [fileItem('Trim', '# Title\n\nLine one\nLine two\n')] });
		const pageId = livePages('Trim')[0].id;
		sim.control.clearRequests();
		const { items } = await run(form(), {
			input: [fileItem('Trim', '# Title  \r\n\t\r\nLine one  \r\nLine two\t \r\n')],
		});
		expect(writes()).toHaveLength(0);
		expect(json(items)[0].sync_result).toBe('unchanged');
		expect(sim.control.store.page(pageId)?.versions).toHaveLength(1);
	});

	test('a changed word with a hard break: the text is sent as given, break included', async () => {
		await run(form(), { input: [fileItem('Break', 'a\nb\n')] });
		sim.control.clearRequests();
		await run(form(), { input: [fileItem('Break', 'a  \nc\n')] });
		expect(writes().map((r) => (r.body as IDataObject).content)).toEqual(['a  \nc\n']);
	});

	test('an empty file is refused before any request, naming the file', async () => {
		const { error } = await run(form(), { input: [fileItem('Empty', '', 'notes/empty.md')] });
		expect(error?.message).toMatch(/^Input Binary Field: the file "notes\/empty\.md".* is empty/);
		expect(requests()).toHaveLength(0);
		const blank = await run(form(), { input: [fileItem('Empty', ' \n\n', 'blank.md')] });
		expect(blank.error?.message).toMatch(/"blank\.md".* is empty \(only whitespace\)/);
		expect(requests()).toHaveLength(0);
	});

	test('Allow Empty File: an empty file is accepted', async () => {
		const { items, error } = await run(form({ options: { allowEmptyFile: true } }), {
			input: [fileItem('Empty', '')],
		});
		expect(error).toBeUndefined();
		expect(json(items)[0].sync_result).toBe('created');
	});

	test('two pages of the folder already sharing a title: an error naming both IDs', async () => {
		const a = sim.control.createPage({
			title: 'Twin',
			content: 'a',
			folderIds: [folders.sales.id],
		});
		const b = sim.control.createPage({
			title: 'Twin',
			content: 'b',
			folderIds: [folders.sales.id],
		});
		const { error } = await run(form({ options: { withinFolder: rl(folders.sales.id) } }), {
			input: [fileItem('Twin', 'x'), fileItem('Single', 'y')],
		});
		expect(error?.message).toContain('2 pages are titled "Twin"');
		expect(error?.message).toContain(a.id);
		expect(error?.message).toContain(b.id);
		expect(writes().filter((r) => (r.body as IDataObject).title === 'Twin')).toHaveLength(0);
		expect(livePages('Twin')).toHaveLength(2);
	});
});

describe('Create or Update: what a re-run costs', () => {
	const FILES = 30;
	const files = (changed?: number) =>
		Array.from({ length: FILES }, (_, i) =>
			fileItem(`Doc ${i}`, i === changed ? `# Doc ${i}\n\nChanged.\n` : `# Doc ${i}\n`),
		);
	// Pacing off: the figures are request counts, not the minute's pace.
	const inFolder = form({
		options: { withinFolder: rl(folders.sales.id) },
		batching: { requestsPerMinute: 0 },
	});
	const countRun = async (input: IDataObject[], staticData?: IDataObject) => {
		sim.control.clearRequests();
		const { items, error } = await run(inFolder, {
			input,
			staticData,
			mode: staticData ? 'trigger' : 'manual',
		});
		expect(error).toBeUndefined();
		return { results: json(items).map((item) => item.sync_result), calls: requests() };
	};

	test('active (memory kept): an unchanged re-run reads only the folder list; a change adds its PATCH', async () => {
		const staticData: IDataObject = {};
		const first = await countRun(files(), staticData);
		expect(first.results).toEqual(Array(FILES).fill('created'));
		const folderPages = sim.control.store.data.pages.filter((p) =>
			p.folderIds.includes(folders.sales.id),
		).length;
		const listReads = Math.ceil(folderPages / 100);

		const again = await countRun(files(), staticData);
		expect(again.results).toEqual(Array(FILES).fill('unchanged'));
		expect(again.calls.map((r) => [r.method, r.path])).toEqual(
			Array(listReads).fill(['GET', '/knowledge-hub/pages']),
		);

		const oneChanged = await countRun(files(7), staticData);
		expect(oneChanged.results.filter((r) => r === 'updated')).toHaveLength(1);
		// The page is as this node left it: no read before the write.
		expect(oneChanged.calls.map((r) => r.method)).toEqual([
			...Array(listReads).fill('GET'),
			'PATCH',
		]);

		// Someone edits a page in the app: its version moves, so it is read (and put back).
		sim.control.updatePage(livePages('Doc 3')[0].id, { content: 'edited', status: 'published' });
		const afterEdit = await countRun(files(7), staticData);
		expect(afterEdit.results[3]).toBe('updated');
		expect(afterEdit.calls).toHaveLength(listReads + 2);
	});

	test('manual (no memory): the folder list once, then one read a page', async () => {
		await countRun(files());
		const folderPages = sim.control.store.data.pages.filter((p) =>
			p.folderIds.includes(folders.sales.id),
		).length;
		const again = await countRun(files());
		expect(again.results).toEqual(Array(FILES).fill('unchanged'));
		expect(again.calls).toHaveLength(Math.ceil(folderPages / 100) + FILES);
	});
});
