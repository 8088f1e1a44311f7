import type { IDataObject } from 'n8n-workflow';

import type { RunningSimulator } from '../../simulator';
import { TriggerEndpoint } from '../../n8n-harness/webhookTrigger';
import { WebhookServer } from '../../n8n-harness/webhookServer';
import { WorkspacePracticeJobTrigger } from '../../nodes/WorkspacePracticeJobTrigger/WorkspacePracticeJobTrigger.node.js';
import { bootJobSim, createParams, runJobNode } from './jobTestKit';

const SECRET = 's3cret-value-for-tests-0123456789';
const TRIGGER_TYPE = 'n8n-nodes-workspace-practice.workspacePracticeJobTrigger';

let sim: RunningSimulator;
let server: WebhookServer;

beforeEach(async () => {
	({ sim } = await bootJobSim());
	server = new WebhookServer();
	await server.start();
});
afterEach(async () => {
	await sim.close();
	await server.close();
});

function endpoint(parameters: IDataObject = {}, typeVersion?: number): TriggerEndpoint {
	return new TriggerEndpoint(server, {
		nodeType: TRIGGER_TYPE,
		typeVersion,
		parameters: { authentication: 'headerSecret', confirmWithApi: true, ...parameters },
		credentials: {
			workspacePracticeApi: { baseUrl: sim.baseUrl, apiKey: sim.apiKey },
			workspacePracticeWebhookSecretApi: { headerName: 'X-Webhook-Secret', secret: SECRET },
		},
	});
}

/** Creates a job (no waiting) whose callback goes to the trigger with the given secret header. */
async function jobCallingBack(
	trigger: TriggerEndpoint,
	secret: string | undefined,
	prompt = 'A cold call',
): Promise<string> {
	const { items, error } = await runJobNode(sim, {
		parameters: createParams(sim, {
			waitForCompletion: 'off',
			prompt,
			additionalFields: {
				callbackUrl: trigger.url,
				...(secret === undefined
					? {}
					: { callbackHeaders: { header: [{ name: 'X-Webhook-Secret', value: secret }] } }),
			},
		}),
	});
	expect(error).toBeUndefined();
	return String(items[0].json.id);
}

const jobReads = () => sim.control.requests({ method: 'GET', path: '/scenario-studio/jobs/*' });

async function post(url: string, body: string, headers: Record<string, string> = {}) {
	const res = await fetch(url, {
		method: 'POST',
		headers: { 'content-type': 'application/json', ...headers },
		body,
	});
	return { status: res.status, body: (await res.json()) as IDataObject };
}

describe('Workspace Practice Job Trigger', () => {
	it('offers version 2 only (version 1 was never released)', () => {
		const { version, defaultVersion } = new WorkspacePracticeJobTrigger().description;
		expect({ version, defaultVersion }).toEqual({ version: 2, defaultVersion: undefined });
		expect(endpoint().node.typeVersion).toBe(2);
	});

	test.each([2])(
		'version %i starts one execution with the confirmed job and its scenario on a callback with the right secret',
		async (typeVersion) => {
			const trigger = endpoint({}, typeVersion);
			expect(trigger.node.typeVersion).toBe(typeVersion);
			const jobId = await jobCallingBack(trigger, SECRET);
			sim.control.advance(5_000);
			await sim.control.waitForCallbacks();
			expect(sim.control.callbacks().map((d) => d.status)).toEqual([200]);
			const [[item]] = trigger.outputs();
			expect(item.json).toMatchObject({ id: jobId, status: 'completed' });
			expect(Object.keys(item.json.scenario as IDataObject).sort()).toEqual([
				'id',
				'name',
				'slug',
				'url',
			]);
			expect(jobReads()).toHaveLength(1);
		},
	);

	it('answers 401 and starts nothing for a wrong or missing secret', async () => {
		const trigger = endpoint();
		await jobCallingBack(trigger, 'not-the-secret');
		await jobCallingBack(trigger, undefined);
		sim.control.advance(5_000);
		await sim.control.waitForCallbacks();
		expect(sim.control.callbacks().map((d) => d.status)).toEqual([401, 401]);
		expect(trigger.started).toHaveLength(0);
		expect(jobReads()).toHaveLength(0);
	});

	it('answers 400 to a non-JSON or id-less body', async () => {
		const trigger = endpoint();
		const text = await fetch(trigger.url, {
			method: 'POST',
			headers: { 'content-type': 'text/plain', 'X-Webhook-Secret': SECRET },
			body: 'done',
		});
		const idless = await post(trigger.url, JSON.stringify({ status: 'completed' }), {
			'X-Webhook-Secret': SECRET,
		});
		const broken = await post(trigger.url, '{"id": ', { 'X-Webhook-Secret': SECRET });
		expect([text.status, idless.status, broken.status]).toEqual([400, 400, 400]);
		expect(trigger.started).toHaveLength(0);
	});

	it('under Confirm With API outputs the service record, not a forged body', async () => {
		const trigger = endpoint();
		const jobId = await jobCallingBack(trigger, SECRET);
		// Claims completion while the job is still queued: the API says otherwise, nothing starts.
		const early = await post(
			trigger.url,
			JSON.stringify({ id: jobId, status: 'completed', scenario: { name: 'Injected' } }),
			{
				'X-Webhook-Secret': SECRET,
			},
		);
		expect(early).toEqual({
			status: 200,
			body: { received: true, started: false, reason: 'status queued is not watched' },
		});
		const unknown = await post(
			trigger.url,
			JSON.stringify({ id: 'no-such-job', status: 'completed' }),
			{ 'X-Webhook-Secret': SECRET },
		);
		expect(unknown.status).toBe(404);
		sim.control.finishJob(jobId);
		const forged = await post(
			trigger.url,
			JSON.stringify({ id: jobId, status: 'completed', scenario: { name: 'Injected' } }),
			{
				'X-Webhook-Secret': SECRET,
			},
		);
		expect(forged.status).toBe(200);
		const [[item]] = trigger.outputs();
		expect((item.json.scenario as IDataObject).name).not.toBe('Injected');
		expect(item.json).toEqual(sim.control.getJob(jobId));
	});

	it('the testing recipe of its panel: POST {"id"} of an ended job, and the job read from the API starts it', async () => {
		const trigger = endpoint();
		// A job that calls nobody back (no Callback URL): the user sends its callback by hand.
		const { items } = await runJobNode(sim, {
			parameters: createParams(sim, { waitForCompletion: 'off' }),
		});
		const jobId = String(items[0].json.id);
		sim.control.finishJob(jobId);
		const res = await post(trigger.url, JSON.stringify({ id: jobId }), {
			'X-Webhook-Secret': SECRET,
		});
		expect(res).toEqual({ status: 200, body: { received: true, started: true } });
		expect(trigger.outputs()[0][0].json).toEqual(sim.control.getJob(jobId));
	});

	it('says in its form and trigger panel what it waits for, where the URLs go, in words right for n8n 1.x and 2.x', () => {
		const { properties, triggerPanel } = new WorkspacePracticeJobTrigger().description;
		const notice = properties.find((p) => p.type === 'notice')!.displayName;
		expect(notice).toMatch(
			/Production URL in Scenario Job → Create → Additional Fields → Callback URL/,
		);
		expect(notice).toMatch(/published \(activated in n8n 1\.x\)/);
		expect(notice).toMatch(/Test URL/);
		// The buttons n8n 1.123 and 2.x show for this node ("Listen for test event" is the Webhook node's).
		expect(notice).toMatch(/"Execute step".*"Test this trigger"/);
		expect(JSON.stringify({ notice, triggerPanel })).not.toMatch(/Listen for test event/);
		expect(notice).not.toMatch(/then activate the workflow/);
		expect(typeof triggerPanel).toBe('object');
		const panel = triggerPanel as {
			header: string;
			executionsHelp: { active: string; inactive: string };
			activationHint: string;
		};
		expect(panel.header).toMatch(/scenario job ends/);
		expect(panel.executionsHelp.inactive).toMatch(
			/Execute step.*Test this trigger.*Test URL.*publish the workflow \(activate it in n8n 1\.x\).*Production URL.*Callback URL/s,
		);
		expect(panel.executionsHelp.active).toMatch(/Production URL.*executions list.*Test URL/s);
		expect(panel.activationHint).toMatch(
			/publish it \(activate it in n8n 1\.x\).*Production URL.*Callback URL/,
		);
	});

	it('without Confirm With API outputs the body and makes no API call', async () => {
		const trigger = endpoint({ confirmWithApi: false, authentication: 'none' });
		const res = await post(
			trigger.url,
			JSON.stringify({ job: { id: 'j-1', status: 'failed', error: { code: 'X', message: 'm' } } }),
		);
		expect(res.status).toBe(200);
		expect(trigger.outputs()[0][0].json).toEqual({
			id: 'j-1',
			status: 'failed',
			error: { code: 'X', message: 'm' },
		});
		expect(jobReads()).toHaveLength(0);
	});

	it('starts one execution for repeated deliveries of the same job and status', async () => {
		const trigger = endpoint();
		const jobId = await jobCallingBack(trigger, SECRET);
		sim.control.advance(5_000);
		await sim.control.waitForCallbacks();
		const again = await sim.control.redeliverCallback(jobId);
		expect(again.status).toBe(200);
		expect(server.received.map((r) => (r.answer.body as IDataObject).started)).toEqual([
			true,
			false,
		]);
		expect((server.received[1].answer.body as IDataObject).reason).toBe('duplicate delivery');
		expect(trigger.started).toHaveLength(1);
	});

	it('starts one execution for duplicates that arrive while the first is still being handled', async () => {
		const trigger = endpoint();
		const { items } = await runJobNode(sim, {
			parameters: createParams(sim, { waitForCompletion: 'off' }),
		});
		const jobId = String(items[0].json.id);
		sim.control.finishJob(jobId);
		// Each delivery waits on its confirming read while the others arrive, as under load.
		const answers = await Promise.all(
			Array.from({ length: 5 }, async () =>
				post(trigger.url, JSON.stringify({ id: jobId }), { 'X-Webhook-Secret': SECRET }),
			),
		);
		expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
		expect(answers.filter((a) => a.body.started === true)).toHaveLength(1);
		expect(answers.filter((a) => a.body.reason === 'duplicate delivery')).toHaveLength(4);
		expect(jobReads()).toHaveLength(5);
		expect(trigger.started).toHaveLength(1);
	});

	it('ignores statuses outside the filter', async () => {
		const trigger = endpoint({ statuses: ['completed'] });
		await jobCallingBack(trigger, SECRET, 'Nope [fail:GENERATION_ERROR]');
		const okId = await jobCallingBack(trigger, SECRET);
		sim.control.advance(5_000);
		await sim.control.waitForCallbacks();
		expect(trigger.started).toHaveLength(1);
		expect(trigger.outputs()[0][0].json).toMatchObject({ id: okId, status: 'completed' });
		expect(server.received.map((r) => (r.answer.body as IDataObject).started).sort()).toEqual([
			false,
			true,
		]);
	});

	it('checks the secret credential locally', async () => {
		const node = new (
			await import('../../nodes/WorkspacePracticeJobTrigger/WorkspacePracticeJobTrigger.node.js')
		).WorkspacePracticeJobTrigger();
		const test = node.methods.credentialTest.checkWebhookSecret;
		const call = (data: IDataObject) =>
			test.call({} as never, { id: 'c', name: 'c', type: 't', data } as never);
		expect((await call({ headerName: 'X-Webhook-Secret', secret: SECRET })).status).toBe('OK');
		expect((await call({ headerName: 'Bad Header', secret: SECRET })).status).toBe('Error');
		expect((await call({ headerName: 'X-Webhook-Secret', secret: 'short' })).status).toBe('Error');
	});
});
