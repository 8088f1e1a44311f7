/**
 * Issue 11's audit: values an expression produces that the field cannot hold are refused with the
 * field's name, before any request is spent (each used to go out: "[object Object]" as a prompt,
 * page_size=0 or NaN, an unfiltered list, a page "archived" through Update).
 */
import type { INodeParameters } from 'n8n-workflow';

import { ManualClock, SEED, startSimulator } from '../../simulator';
import type { RunningSimulator } from '../../simulator';
import { runNode } from '../../n8n-harness/runNode';

let sim: RunningSimulator;
beforeAll(async () => {
	sim = await startSimulator({ clock: new ManualClock() });
});
afterAll(async () => await sim.close());
beforeEach(() => sim.control.reset());

async function refused(parameters: INodeParameters, message: RegExp): Promise<void> {
	const { error } = await runNode({
		parameters,
		credentials: { baseUrl: sim.baseUrl, apiKey: sim.apiKey },
	});
	expect(error?.message).toMatch(message);
	expect(sim.control.requests({})).toEqual([]);
}

test('a prompt whose expression returns an object: no job is created', async () => {
	await refused(
		{
			resource: 'scenarioJob',
			operation: 'create',
			userEmail: SEED.members[0].email,
			prompt: '={{ { deal: "Acme" } }}',
			waitForCompletion: 'off',
		},
		/^Prompt: must be text, but the expression returned an object/,
	);
});

test.each([0, -1, 2.5, '={{ Number("x") }}'])(
	'Limit %p is refused, not sent as page_size',
	async (limit) => {
		await refused(
			{ resource: 'member', operation: 'getAll', limit },
			/^Limit: must be a whole number of 1 or more/,
		);
	},
);

test('a list filter whose expression returns an object is refused, not dropped', async () => {
	await refused(
		{ resource: 'assignment', operation: 'getAll', filters: { program_ids: '={{ { id: "x" } }}' } },
		/must be a list or comma-separated text, but the expression returned an object/,
	);
});

test('Update with status "archived" points to the Archive operation', async () => {
	await refused(
		{
			resource: 'knowledgeHubPage',
			operation: 'update',
			pageId: { __rl: true, mode: 'id', value: SEED.pages.publishedWithDraft.id },
			updateFields: { status: '={{ "archived" }}' },
		},
		/^Status: cannot be "archived" here: archive a page with Knowledge Hub Page → Archive/,
	);
});
