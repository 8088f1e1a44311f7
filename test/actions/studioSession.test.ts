import type { INodeParameters } from 'n8n-workflow';

import { ManualClock, SEED, startSimulator } from '../../simulator';
import type { RunningSimulator } from '../../simulator';
import { runNode } from '../../n8n-harness/runNode';
import type { RunNodeOptions } from '../../n8n-harness/runNode';

let sim: RunningSimulator;
beforeAll(async () => {
	sim = await startSimulator({ clock: new ManualClock() });
});
afterAll(async () => await sim.close());
beforeEach(() => sim.control.reset());

async function run(parameters: INodeParameters, options: Partial<RunNodeOptions> = {}) {
	return await runNode({
		parameters: { resource: 'studioSession', operation: 'create', ...parameters },
		credentials: { baseUrl: sim.baseUrl, apiKey: sim.apiKey },
		...options,
	});
}

const sessionRequests = () => sim.control.requests({ path: '/scenario-studio' });
const PROMPT = 'A discovery call with a skeptical IT director';

describe('Studio Session → Create', () => {
	test('default form: user_email and prompt in the body; the output carries the URL and is_new', async () => {
		const { items, error } = await run({ userEmail: 'bob@acme.com', prompt: PROMPT });
		expect(error).toBeUndefined();
		const [request] = sessionRequests();
		expect([request.method, request.body]).toEqual([
			'POST',
			{ user_email: 'bob@acme.com', prompt: PROMPT },
		]);
		expect(items).toHaveLength(1);
		expect(items[0].json).toEqual({
			id: expect.any(String),
			url: expect.stringMatching(/^https:\/\/.+\/chat\//),
			is_new: true,
		});
		expect(items[0].pairedItem).toEqual({ item: 0 });
	});

	test('Request ID: a second run with the same key returns the first session, is_new false', async () => {
		const parameters = {
			userEmail: 'carla@acme.com',
			prompt: PROMPT,
			additionalFields: { request_id: 'meeting-123' },
		};
		const first = await run(parameters);
		const second = await run(parameters);
		expect(
			sessionRequests().map((r) => [r.status, (r.body as { request_id?: string }).request_id]),
		).toEqual([
			[201, 'meeting-123'],
			[200, 'meeting-123'],
		]);
		expect(first.items[0].json.is_new).toBe(true);
		expect(second.items[0].json).toEqual({ ...first.items[0].json, is_new: false });
	});

	test('an invalid e-mail or an empty prompt fails before any request', async () => {
		const badEmail = await run({ userEmail: 'bob at acme', prompt: PROMPT });
		expect(badEmail.error?.message).toBe('Member: must be an e-mail address, got "bob at acme"');
		expect(badEmail.error?.description).toMatch(/Item 0:/);
		const noPrompt = await run({ userEmail: 'bob@acme.com', prompt: '={{ "   " }}' });
		expect(noPrompt.error?.message).toBe('Prompt: is required and cannot be empty');
		expect(sessionRequests()).toHaveLength(0);
	});

	test('someone outside the workspace: the API error comes back as a NodeApiError', async () => {
		const { error } = await run({ userEmail: SEED.formerUser.email, prompt: PROMPT });
		expect(error?.message).toMatch(/400 invalid_request\/user_not_found/);
		expect(error?.description).toMatch(/HTTP 400/);
	});

	test('Continue On Fail: one session per good item, errors paired to the bad ones', async () => {
		const { items, error } = await run(
			{ userEmail: '={{ $json.email }}', prompt: '={{ $json.prompt }}' },
			{
				continueOnFail: true,
				input: [
					{ email: 'dev@acme.com', prompt: 'Cold call' },
					{ email: 'nobody', prompt: 'x' },
					{ email: SEED.formerUser.email, prompt: 'x' },
					{ email: 'erin@acme.com', prompt: 'Renewal' },
				],
			},
		);
		expect(error).toBeUndefined();
		expect(items.map((item) => item.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 1 },
			{ item: 2 },
			{ item: 3 },
		]);
		expect(items[0].json.is_new).toBe(true);
		expect(items[1].json.error).toMatch(/^Member: must be an e-mail address/);
		expect(items[2].json).toMatchObject({ httpCode: '400' });
		expect(items[3].json.is_new).toBe(true);
		expect(sessionRequests().map((r) => (r.body as { user_email: string }).user_email)).toEqual([
			'dev@acme.com',
			SEED.formerUser.email,
			'erin@acme.com',
		]);
	});
});
