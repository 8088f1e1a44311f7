/**
 * Issue 49: the playbook rollout report, as imported (only the chat URL changed, as its notes say),
 * runs to a message a stranger sees: its default title is a published page of the simulator's
 * workspace (the one `npm run editor` and the demo use), whose scenario is not built yet, so the run
 * starts the job without waiting and posts the "not ready" note; a title no page has posts a note
 * saying so. It once carried Wait for Completion "none", which waited 15 minutes for a callback no one
 * sent, and a title that matched nothing ended green with nothing posted. Issue 57: as imported, with no
 * chat URL yet, the run stops with an error naming the setting (a placeholder host had failed with
 * n8n's "incorrect host (domain)" alone).
 */
import type { IDataObject } from 'n8n-workflow';
import { join } from 'node:path';

import { ManualClock, startSimulator } from '../../simulator';
import type { RunningSimulator } from '../../simulator';
import { readWorkflowFile, runWorkflow, type WorkflowFile } from '../../n8n-harness/runWorkflow';
import { WebhookServer } from '../../n8n-harness/webhookServer';
import { withSettings } from '../../scripts/demoTemplates';

const FILE = join(__dirname, '..', '..', 'examples', 'playbook-rollout-report.json');

let sim: RunningSimulator;
let chat: WebhookServer;
const posted: string[] = [];
beforeAll(async () => {
	// The clock does not move: a job created here stays queued.
	sim = await startSimulator({ clock: new ManualClock() });
	chat = new WebhookServer();
	await chat.start();
	chat.route(/^\/chat$/, async (request) => {
		posted.push(String((request.body as IDataObject).text));
		return { status: 200, body: { ok: true } };
	});
});
afterAll(async () => {
	await chat.close();
	await sim.close();
});
beforeEach(() => {
	sim.control.reset();
	posted.length = 0;
});

async function run(file: WorkflowFile) {
	return await runWorkflow({
		file,
		credentials: { baseUrl: sim.baseUrl, apiKey: sim.apiKey },
		startNode: 'Every Monday at 9',
		triggerItems: [{}],
	});
}

const settingsOf = (file: WorkflowFile): IDataObject =>
	JSON.parse(
		String(file.nodes.find((n) => n.name === 'Settings')?.parameters.jsonOutput),
	) as IDataObject;

test('as imported, its title is a published page of the workspace, and the not-ready note posts', async () => {
	const template = readWorkflowFile(FILE);
	const title = String(settingsOf(template).playbook_title);
	const page = sim.control.store.data.pages.find((p) => p.title === title);
	expect(page?.status).toBe('published');
	const result = await run(withSettings(template, { chat_webhook_url: `${chat.baseUrl}/chat` }));
	expect(result.error).toBeUndefined();
	expect(result.run.status).not.toBe('waiting');
	const jobs = sim.control.requests({ method: 'POST', path: '/scenario-studio/jobs' });
	expect(jobs).toHaveLength(1);
	expect((jobs[0].body as IDataObject).callback_url).toBeUndefined();
	expect(posted).toHaveLength(1);
	expect(posted[0]).toMatch(
		new RegExp(
			`^Playbook rollout, "${title}": the scenario is not ready yet \\(job \\w+, queued\\)\\.$`,
		),
	);
});

test('a title no published page has: a note says so, and no job is made', async () => {
	const file = withSettings(readWorkflowFile(FILE), {
		playbook_title: 'No such playbook',
		chat_webhook_url: `${chat.baseUrl}/chat`,
	});
	const result = await run(file);
	expect(result.error).toBeUndefined();
	expect(sim.control.requests({ method: 'POST', path: '/scenario-studio/jobs' })).toEqual([]);
	expect(posted).toEqual([
		'Playbook rollout: no published page is titled "No such playbook". Set playbook_title in Settings to the page\'s exact title.',
	]);
});

test('as imported, before the chat URL is set: the run stops with an error naming Settings → chat_webhook_url', async () => {
	const result = await run(readWorkflowFile(FILE));
	expect(result.error).toMatch(
		/^Settings → chat_webhook_url is empty: paste your chat's incoming-webhook URL there/,
	);
	expect(posted).toEqual([]);
});
