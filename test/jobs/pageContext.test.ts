/**
 * Scenario Job → Create → Context From: Knowledge Hub Pages, through the real engine against the
 * simulator: one read per page, titles as headings, published or draft body, the 50,000-character
 * limit checked before any job is created, the same in the AI-tool variant; Text stays as it was.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { RunningSimulator } from '../../simulator';
import { runToolCalls } from '../../n8n-harness/runTool';
import { bootJobSim, createParams, runJobNode } from './jobTestKit';

let sim: RunningSimulator;
beforeAll(async () => {
	({ sim } = await bootJobSim({ jobTimings: { queuedMs: 0, processingMs: 0 } }));
});
afterAll(async () => await sim.close());
beforeEach(() => sim.control.reset());

const page = (title: string, content: string, status: 'draft' | 'published' = 'published') =>
	sim.control.createPage({ title, content, status }).id;
const rows = (...ids: string[]) => ({
	page: ids.map((id) => ({ page: { __rl: true, mode: 'list', value: id } })),
});
const run = (extra: INodeParameters) =>
	runJobNode(sim, {
		parameters: createParams(sim, { waitForCompletion: 'off', ...extra }),
	});
const posts = () =>
	sim.control.requests().filter((r) => r.method === 'POST' && r.path === '/scenario-studio/jobs');
const pageReads = () =>
	sim.control.requests().filter((r) => r.method === 'GET' && r.path.startsWith('/knowledge-hub/'));
const sentContext = () => (posts()[0].body as IDataObject).context;

describe('Scenario Job → Create → Context From', () => {
	test('Text (the default): the Context field as before, no page read', async () => {
		const { error } = await run({ additionalFields: { context: '## Prospect\nTechCorp' } });
		expect(error).toBeUndefined();
		expect(sentContext()).toBe('## Prospect\nTechCorp');
		expect(pageReads()).toEqual([]);
	});

	test('Knowledge Hub Pages: each page read once, joined under its title, in the order given', async () => {
		const a = page('Discovery playbook', 'Ask about **budget** first.');
		const b = page('Objection handling', 'Acknowledge, then reframe.');
		const { error, items } = await run({ contextFrom: 'pages', contextPages: rows(b, a) });
		expect(error).toBeUndefined();
		expect(items[0].json.status).toBe('queued');
		expect(sentContext()).toBe(
			'# Objection handling\n\nAcknowledge, then reframe.\n\n# Discovery playbook\n\nAsk about **budget** first.',
		);
		expect(pageReads().map((r) => [r.path, r.query])).toEqual([
			[`/knowledge-hub/pages/${b}`, {}],
			[`/knowledge-hub/pages/${a}`, {}],
		]);
		// Pages first, then the one create.
		const order = sim.control.requests().map((r) => r.method);
		expect(order).toEqual(['GET', 'GET', 'POST']);
	});

	test('a Context text goes first; Latest Draft reads the pending edits (include=draft)', async () => {
		const id = page('Pricing', 'Old prices.');
		sim.control.updatePage(id, { title: 'Pricing 2027', content: 'New prices.' });
		await run({
			contextFrom: 'pages',
			contextPages: rows(id),
			contextPageBody: 'draft',
			additionalFields: { context: 'Focus on the CFO.' },
		});
		expect(pageReads()[0].query).toEqual({ include: 'draft' });
		expect(sentContext()).toBe('Focus on the CFO.\n\n# Pricing 2027\n\nNew prices.');
		sim.control.reset();
		const again = page('Pricing', 'Old prices.');
		sim.control.updatePage(again, { content: 'New prices.' });
		await run({ contextFrom: 'pages', contextPages: rows(again) });
		expect(sentContext()).toBe('# Pricing\n\nOld prices.');
	});

	test('over 50,000 characters: refused naming each page and its size, 0 jobs created', async () => {
		const big = page('Big playbook', 'x'.repeat(30_000));
		const bigger = page('Bigger playbook', 'y'.repeat(20_000));
		const { error } = await run({ contextFrom: 'pages', contextPages: rows(big, bigger) });
		expect(error?.message).toBe(
			'Context Pages: 50,037 characters, over the 50,000 the service takes',
		);
		const description = (error as { description?: string }).description ?? '';
		expect(description).toContain(`"Big playbook" (${big}) 30,016`);
		expect(description).toContain(`"Bigger playbook" (${bigger}) 20,019`);
		expect(description).toContain('No job was created');
		expect(posts()).toHaveLength(0);
		expect(pageReads()).toHaveLength(2);
	});

	test('exactly 50,000 characters is accepted', async () => {
		const id = page('T', 'z'.repeat(50_000 - '# T\n\n'.length));
		const { error } = await run({ contextFrom: 'pages', contextPages: rows(id) });
		expect(error).toBeUndefined();
		expect((sentContext() as string).length).toBe(50_000);
	});

	test('a never-published page with Published is refused naming it, no job', async () => {
		const id = page('Unfinished', 'Draft only', 'draft');
		const { error } = await run({ contextFrom: 'pages', contextPages: rows(id) });
		expect(error?.message).toBe('Context Pages: "Unfinished" has no published body');
		expect(posts()).toHaveLength(0);
	});

	test.each([
		[{ contextFrom: 'pages' }, 'Context Pages: must list at least one page'],
		[
			{ contextFrom: 'pages', contextPages: rows('={{ "page-1" }}') },
			'Context Pages (row 1): must be a UUID',
		],
	])('bad input %j fails before any request', async (extra, message) => {
		const { error } = await run(extra);
		expect(error?.message).toContain(message);
		expect(sim.control.requests()).toEqual([]);
	});

	test('an unknown page is the API 404 naming it, before any job', async () => {
		const missing = '11111111-2222-4333-8444-555555555555';
		const { error } = await run({ contextFrom: 'pages', contextPages: rows(missing) });
		expect(error?.message).toMatch(/not found/i);
		expect(JSON.stringify(error)).toContain(missing);
		expect(posts()).toHaveLength(0);
	});

	test('in the AI-tool variant too: the pages are read and the limit holds', async () => {
		const id = page('Tool playbook', 'Short.');
		const tool = (pageId: string): INodeParameters => ({
			resource: 'scenarioJob',
			operation: 'create',
			userEmail: { __rl: true, mode: 'email', value: sim.control.fixtures().members[0].email },
			prompt: "={{ $fromAI('prompt', 'What the scenario is about', 'string') }}",
			contextFrom: 'pages',
			contextPages: rows(pageId),
		});
		const credentials = { baseUrl: sim.baseUrl, apiKey: sim.apiKey };
		const ok = await runToolCalls({
			parameters: tool(id),
			calls: [{ prompt: 'A call' }],
			credentials,
		});
		expect((ok.answers[0].answer as IDataObject[])[0].status).toBe('queued');
		expect(sentContext()).toBe('# Tool playbook\n\nShort.');
		sim.control.reset();
		const big = page('Huge', 'h'.repeat(50_001));
		const over = await runToolCalls({
			parameters: tool(big),
			calls: [{ prompt: 'A call' }],
			credentials,
		});
		expect(String(over.answers[0].error)).toContain('over the 50,000');
		expect(posts()).toHaveLength(0);
	});
});

describe('Context From pages with a list of items', () => {
	const listRun = (ids: string[][], extra: INodeParameters = {}) =>
		runJobNode(sim, {
			parameters: createParams(sim, {
				waitForCompletion: 'poll',
				contextFrom: 'pages',
				contextPages: {
					page: [{ page: { __rl: true, mode: 'id', value: '={{ $json.page }}' } }],
				},
				...extra,
			}),
			input: ids.map(([page]) => ({ page })),
		});

	test('By Polling: one item over the limit stops the run before any job is created', async () => {
		const small = page('Small', 'ok');
		const big = page('Too big', 'b'.repeat(50_000));
		const { error } = await listRun([[small], [big], [small]]);
		expect(error?.message).toContain('over the 50,000');
		expect((error as { description?: string }).description).toContain('Too big');
		expect(posts()).toHaveLength(0);
		expect(pageReads()).toHaveLength(3); // every item checked (one read per page) before any creation
	});

	test('Off (items one by one) too; with Continue On Fail the others are created', async () => {
		const small = page('Small', 'ok');
		const big = page('Too big', 'b'.repeat(50_000));
		const off = await listRun([[small], [big]], { waitForCompletion: 'off' });
		expect(off.error?.message).toContain('over the 50,000');
		expect(posts()).toHaveLength(0);
		sim.control.clearRequests();
		const { items, error } = await runJobNode(sim, {
			parameters: createParams(sim, {
				waitForCompletion: 'off',
				contextFrom: 'pages',
				contextPages: {
					page: [{ page: { __rl: true, mode: 'id', value: '={{ $json.page }}' } }],
				},
			}),
			input: [{ page: small }, { page: big }, { page: small }],
			continueOnFail: true,
		});
		expect(error).toBeUndefined();
		expect(items.map((i) => (i.json.error ? 'error' : i.json.status))).toEqual([
			'queued',
			'error',
			'queued',
		]);
		expect(posts().map((r) => (r.body as IDataObject).context)).toEqual([
			'# Small\n\nok',
			'# Small\n\nok',
		]);
	});
});
