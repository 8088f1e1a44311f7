/**
 * `npm run verification-video`: the demo video n8n's verification of a community node asks for, made
 * by a script. One take, in the real n8n editor (the pinned 2.x) against the simulator: the package as
 * installed, the credential tested, the main operations run, a trigger firing, and an AI Agent calling
 * one of the package's tools (its model is a scripted stub on 127.0.0.1, scripts/n8n/openaiStub.ts).
 * A caption at the top of each scene says what is shown.
 *
 * Frames: Playwright screenshots of the editor at a steady rate (FPS a second), each kept for as long
 * as it was on screen; Debian's ffmpeg (`apt-get install -y ffmpeg` when missing) makes them an MP4
 * outside the repository, whose path is printed. The take is checked to last under five minutes
 * (ffprobe). docs/release.md says how a release uses it.
 *
 * The package is installed as n8n's community-package installer leaves it (`npm install <tarball>` in
 * <user folder>/.n8n/nodes), not through Settings → Community Nodes → Install: that screen installs
 * from registry.npmjs.org only (another registry is an Enterprise setting), where an unreleased
 * version is not. The video says so. After a release, the same take can show the UI install.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';

import type { Page } from 'playwright-core';

import { agentWorkflow } from './n8n/aiWorkflows';
import { OpenAiStub } from './n8n/openaiStub';
import { actionNode, chain } from './n8n/workflows';
import { dismissPopups, launchChromium, login } from './n8n/browser';
import { startReadyInstance, type ReadyInstance } from './n8n/instance';
import { REPO_ROOT, VERSIONS } from './n8n/paths';

const FPS = 2;
const MAX_SECONDS = 300;
const VIEWPORT = { width: 1440, height: 900 };
const OUT_DIR = join(homedir(), '.cache', 'n8n-nodes-workspace-practice', 'verification');
const VERSION = (
	JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }
).version;

/** Debian's ffmpeg, installed when missing (as scripts/n8n/browser.ts does for chromium). */
function ffmpeg(): string {
	if (existsSync('/usr/bin/ffmpeg')) return '/usr/bin/ffmpeg';
	const asRoot = process.getuid?.() === 0 ? [] : ['sudo', '-n'];
	for (const cmd of [
		['apt-get', 'update'],
		['apt-get', 'install', '-y', '--no-install-recommends', 'ffmpeg'],
	]) {
		const [bin, ...rest] = [...asRoot, ...cmd];
		execFileSync(bin, rest, {
			stdio: 'inherit',
			env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
		});
	}
	if (!existsSync('/usr/bin/ffmpeg')) throw new Error('ffmpeg did not install');
	return '/usr/bin/ffmpeg';
}

/** Screenshots at a steady rate while the scenes play; each frame remembers when it was taken. */
class Recorder {
	private readonly frames: Array<{ file: string; at: number }> = [];
	private running = false;
	private loop?: Promise<void>;

	constructor(
		private readonly page: Page,
		readonly dir: string,
	) {}

	start(): void {
		this.running = true;
		this.loop = (async () => {
			while (this.running) {
				const at = Date.now();
				const file = join(this.dir, `frame-${String(this.frames.length).padStart(5, '0')}.jpg`);
				try {
					await this.page.screenshot({ path: file, type: 'jpeg', quality: 70 });
					this.frames.push({ file, at });
				} catch {
					// A navigation in progress: the next tick takes the picture.
				}
				const wait = 1000 / FPS - (Date.now() - at);
				if (wait > 0) await new Promise((r) => setTimeout(r, wait));
			}
		})();
	}

	async stop(): Promise<void> {
		this.running = false;
		await this.loop;
		this.frames.push({ file: this.frames.at(-1)?.file ?? '', at: Date.now() });
	}

	/** ffmpeg's concat list: each frame for as long as it was the newest. */
	concatList(): string {
		const lines: string[] = [];
		for (let i = 0; i < this.frames.length - 1; i++) {
			lines.push(`file '${this.frames[i].file}'`);
			lines.push(`duration ${((this.frames[i + 1].at - this.frames[i].at) / 1000).toFixed(3)}`);
		}
		lines.push(`file '${this.frames[this.frames.length - 2]?.file ?? ''}'`);
		return lines.join('\n') + '\n';
	}

	get count(): number {
		return this.frames.length;
	}
}

/** Adds the caption bar in the page (a script string: the project's TypeScript has no DOM types). */
const CAPTION_SCRIPT = `(text) => {
	const id = 'verification-caption';
	document.getElementById(id)?.remove();
	const div = document.createElement('div');
	div.id = id;
	div.textContent = text;
	Object.assign(div.style, {
		position: 'fixed', left: '0', right: '0', bottom: '0', zIndex: '100000',
		padding: '10px 16px', background: 'rgba(20, 20, 30, 0.85)', color: '#fff',
		font: '600 17px/1.35 system-ui, sans-serif', pointerEvents: 'none',
	});
	document.body.appendChild(div);
}`;

/** A caption along the bottom of the editor (added again after each navigation). */
async function caption(page: Page, text: string): Promise<void> {
	await page.evaluate(`(${CAPTION_SCRIPT})(${JSON.stringify(text)})`);
}

/**
 * Opens a page of the editor and holds it under a caption. A workflow or an execution is shown once
 * its canvas (an execution's is inside the preview's iframe) has drawn its nodes.
 */
async function show(page: Page, url: string, text: string, holdMs: number): Promise<void> {
	await page.goto(url);
	const nodes = url.includes('/executions/')
		? page.frameLocator('iframe').first().locator('[data-test-id="canvas-node"]').first()
		: page.locator('[data-test-id="canvas-node"]').first();
	if (url.includes('/workflow/')) await nodes.waitFor({ timeout: 20000 }).catch(() => undefined);
	else await page.waitForLoadState('networkidle', { timeout: 15000 }).catch(() => undefined);
	await dismissPopups(page);
	await caption(page, text);
	await page.waitForTimeout(holdMs);
	await dismissPopups(page);
}

/** Manual Trigger → the package's main operations, one after the other. */
function operationsWorkflow(credential: { id: string; name: string }) {
	const manual = {
		id: randomUUID(),
		name: 'Run the operations',
		type: 'n8n-nodes-base.manualTrigger',
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
	};
	const node = (name: string, parameters: Record<string, unknown>, x: number) => ({
		...actionNode(name, parameters, credential, [x, 0]),
		executeOnce: true,
	});
	return chain('Verification: main operations', [
		manual,
		node('List scenarios', { resource: 'scenario', operation: 'getAll', limit: 5 }, 220),
		node(
			'Results of a scenario',
			{
				resource: 'scenario',
				operation: 'getAnalyticsSummary',
				scenario: { __rl: true, mode: 'id', value: '={{ $json.id }}' },
			},
			440,
		),
		node(
			'Create a scenario and wait',
			{
				resource: 'scenarioJob',
				operation: 'create',
				userEmail: { __rl: true, mode: 'email', value: 'bob@acme.com' },
				prompt: 'A discovery call with a hospital procurement lead who already has a vendor',
				waitForCompletion: 'poll',
			},
			660,
		),
		node(
			'Assign it',
			{
				resource: 'scenario',
				operation: 'assign',
				scenario: { __rl: true, mode: 'id', value: '={{ $json.scenario.id }}' },
				userEmail: { __rl: true, mode: 'email', value: 'bob@acme.com' },
				dueDate: '={{ $now.plus({ days: 7 }).toISO() }}',
			},
			880,
		),
		node(
			'Knowledge Hub pages',
			{ resource: 'knowledgeHubPage', operation: 'getAll', limit: 5 },
			1100,
		),
	]);
}

async function newestExecution(instance: ReadyInstance, workflowId: string): Promise<string> {
	for (let i = 0; i < 60; i++) {
		const list = await instance.api.executions(workflowId);
		const done = list.find((e) => e.finished || e.status === 'error');
		if (done) return String(done.id);
		await new Promise((r) => setTimeout(r, 1000));
	}
	throw new Error(`no execution of workflow ${workflowId}`);
}

async function scenes(page: Page, instance: ReadyInstance, stub: OpenAiStub): Promise<void> {
	const base = instance.n8n.baseUrl;
	const { api, sim } = instance;
	const credential = { id: instance.credentialId, name: 'Workspace Practice account' };
	sim.control.setJobTimings({ queuedMs: 500, processingMs: 2500 });

	// 1. The package, installed.
	await show(
		page,
		`${base}/settings/community-nodes`,
		`1/5 n8n ${VERSIONS[2]} with n8n-nodes-workspace-practice ${VERSION}, installed as n8n's community-package installer leaves it (npm install of the packed package into ~/.n8n/nodes): the UI installs from registry.npmjs.org only, where this version is not published yet.`,
		5000,
	);
	await page.goto(`${base}/workflow/new`);
	await page
		.locator('[data-test-id="canvas-plus-button"], [data-test-id="canvas-add-button"]')
		.first()
		.waitFor({ timeout: 30000 })
		.catch(() => undefined);
	await dismissPopups(page);
	await caption(page, '1/5 Its nodes in the node panel: search "Workspace Practice".');
	await page.keyboard.press('Tab');
	await page.waitForTimeout(800);
	await page.keyboard.type('Workspace Practice', { delay: 60 });
	await page.waitForTimeout(4000);
	await page.keyboard.press('Escape');

	// 2. The credential, tested.
	await show(
		page,
		`${base}/home/credentials/${instance.credentialId}`,
		'2/5 The Workspace Practice credential (API key, base URL of the simulator): Save tests it against the service.',
		1500,
	);
	const save = page.locator('[data-test-id="credential-save-button"]').first();
	if (await save.isVisible().catch(() => false)) await save.click();
	await page
		.getByText(/tested successfully/i)
		.first()
		.waitFor({ timeout: 20000 })
		.catch(() => undefined);
	await caption(page, '2/5 Connection tested successfully.');
	await page.waitForTimeout(3500);
	await page.keyboard.press('Escape');

	// 3. The main operations, run from the editor.
	const ops = await api.createWorkflow(operationsWorkflow(credential));
	await show(
		page,
		`${base}/workflow/${ops.id}`,
		'3/5 The main operations: list scenarios, a scenario’s results, create a scenario and wait for it, assign it, list Knowledge Hub pages.',
		2500,
	);
	await page.locator('[data-test-id="execute-workflow-button"]').first().click();
	await caption(page, '3/5 Execute workflow: each node runs against the service.');
	await page
		.getByText(/executed successfully/i)
		.first()
		.waitFor({ timeout: 40000 })
		.catch(() => undefined);
	await page.waitForTimeout(2500);
	const last = page.locator('[data-test-id="canvas-node"][data-node-name="Assign it"]');
	if (await last.isVisible().catch(() => false)) {
		await last.dblclick();
		await caption(page, '3/5 The assignment the workflow made, as the service returned it.');
		await page.waitForTimeout(5000);
		await page.keyboard.press('Escape');
	}

	// 4. A trigger firing: a finished job calls the Job Trigger back.
	const callbacksId = instance.workflows['job-callbacks-to-team.json'];
	const callbacks = JSON.parse(
		readFileSync(join(REPO_ROOT, 'examples', 'job-callbacks-to-team.json'), 'utf8'),
	) as { nodes: Array<{ type: string; webhookId?: string }> };
	const webhookId = callbacks.nodes.find((n) => n.type.endsWith('JobTrigger'))?.webhookId;
	await api.activate(callbacksId);
	await show(
		page,
		`${base}/workflow/${callbacksId}`,
		'4/5 A trigger: the template "Assign new scenarios to a team on job callbacks", published. A scenario job is created with its callback URL…',
		4000,
	);
	const res = await fetch(`${sim.baseUrl}/scenario-studio/jobs`, {
		method: 'POST',
		headers: { authorization: `Bearer ${sim.apiKey}`, 'content-type': 'application/json' },
		body: JSON.stringify({
			user_email: 'carla@acme.com',
			prompt: 'Cold call to a hospital procurement lead',
			callback_url: `${instance.n8n.webhookBaseUrl}/webhook/${String(webhookId)}/workspace-practice-job`,
			callback_headers: { 'X-Webhook-Secret': 'change-me-to-a-long-random-value' },
		}),
	});
	const job = (await res.json()) as { id: string };
	await sim.control.waitForCallbacks();
	const fired = await newestExecution(instance, callbacksId);
	await show(
		page,
		`${base}/workflow/${callbacksId}/executions/${fired}`,
		`4/5 …job ${job.id} finished, the service called back, the Job Trigger fired: the scenario assigned to the team.`,
		7000,
	);

	// 5. An AI Agent calls one of the package's tools.
	stub.script({
		matches: (prompt) => prompt.includes('scenarios'),
		turns: [
			{ calls: () => [{ tool: 'Find_scenarios', args: {} }] },
			{ answer: () => 'Here are the practice scenarios of the workspace.' },
		],
	});
	const openAi = await api.createCredential('OpenAI (scripted stub)', 'openAiApi', {
		apiKey: 'sk-stub',
		url: stub.baseUrl,
		header: false,
	});
	const path = `verification-agent-${randomUUID().slice(0, 8)}`;
	const agent = await api.createWorkflow(
		agentWorkflow({
			name: 'Verification: AI Agent with a Workspace Practice tool',
			path,
			tools: [
				{
					name: 'Find scenarios',
					parameters: { resource: 'scenario', operation: 'getAll', limit: 10 },
				},
			],
			credential,
			openAi: { id: openAi.id, name: openAi.name },
		}),
	);
	await api.activate(agent.id);
	await show(
		page,
		`${base}/workflow/${agent.id}`,
		'5/5 An AI Agent with the Workspace Practice tool "Find scenarios" (the chat model is a scripted stand-in on 127.0.0.1).',
		4000,
	);
	await api.callWebhook(path, { json: { question: 'Which practice scenarios do we have?' } });
	const answered = await newestExecution(instance, agent.id);
	await show(
		page,
		`${base}/workflow/${agent.id}/executions/${answered}`,
		'5/5 The agent called the tool: Find scenarios listed the workspace’s scenarios, and the agent answered.',
		7000,
	);
}

async function main(): Promise<void> {
	const bin = ffmpeg();
	mkdirSync(OUT_DIR, { recursive: true });
	const frames = mkdtempSync(join(tmpdir(), 'wsp-video-'));
	const instance = await startReadyInstance((line) => console.log(line));
	const stub = await OpenAiStub.start();
	const browser = await launchChromium();
	const started = Date.now();
	try {
		const page = await browser.newPage({ viewport: VIEWPORT });
		await login(page, instance.n8n.baseUrl);
		const recorder = new Recorder(page, frames);
		recorder.start();
		try {
			await scenes(page, instance, stub);
		} finally {
			await recorder.stop();
		}
		const list = join(frames, 'frames.txt');
		writeFileSync(list, recorder.concatList());
		const stamp = new Date().toISOString().slice(0, 19).replace(/[:T]/g, '-');
		const out = join(OUT_DIR, `n8n-nodes-workspace-practice-${VERSION}-${stamp}.mp4`);
		const encode = spawnSync(
			bin,
			[
				...['-y', '-loglevel', 'error', '-f', 'concat', '-safe', '0', '-i', list],
				...['-vf', `fps=${FPS},scale=trunc(iw/2)*2:trunc(ih/2)*2`],
				...['-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-movflags', '+faststart', out],
			],
			{ stdio: 'inherit' },
		);
		if (encode.status !== 0) throw new Error(`ffmpeg failed (${String(encode.status)})`);
		const probe = spawnSync(
			bin.replace(/ffmpeg$/, 'ffprobe'),
			['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', out],
			{ encoding: 'utf8' },
		);
		const seconds = Number(probe.stdout.trim());
		if (!(seconds > 0)) throw new Error(`ffprobe could not read ${out}: ${probe.stderr}`);
		if (seconds >= MAX_SECONDS)
			throw new Error(`the take lasts ${seconds} s, over n8n's ${MAX_SECONDS} s: ${out}`);
		console.log(
			`${recorder.count} frames in ${Math.round((Date.now() - started) / 1000)} s → ${seconds.toFixed(1)} s of video`,
		);
		console.log(`Video: ${out}`);
	} catch (error) {
		console.error(instance.n8n.logTail(30));
		throw error;
	} finally {
		await browser.close();
		await stub.close();
		await instance.stop();
		rmSync(frames, { recursive: true, force: true });
	}
}

main().catch((error: unknown) => {
	console.error(error instanceof Error ? error.message : error);
	process.exit(1);
});
