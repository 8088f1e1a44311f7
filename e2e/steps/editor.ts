/**
 * The editor as a user meets it (issue 35), in the real n8n 2.x through Debian's Chromium
 * (`--steps=editor`): the trigger in both modes, the Job Trigger and the action node's main forms opened
 * one by one, then every example imported from its file as a user does (Import from File). Fails on an
 * unknown node, a node or parameter issue (a required value missing, a credential slot left empty), a
 * console error from the package's files, a failed request for them, or a schema the editor asks for
 * that n8n answers 404. The schema files are also fetched directly for every operation and trigger.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { Page, Response } from 'playwright-core';

import { dismissPopups, launchChromium, login } from '../../scripts/n8n/browser';
import { REPO_ROOT } from '../../scripts/n8n/paths';
import { resources } from '../../nodes/WorkspacePractice/actions/resources';
import { DEFAULT_MAX_READS } from '../../nodes/WorkspacePracticeTrigger/knowledgeHub/settings';
import { CASES, type CaseContext } from '../cases';
import { requireCredential, type SuiteContext } from '../context';
import { CheckError, expect } from '../harness';
import {
	ACTION_TYPE,
	JOB_TRIGGER_TYPE,
	PACKAGE,
	POLL_TRIGGER_TYPE,
	TOOL_TYPE,
	type CredentialRef,
	type Params,
} from '../../scripts/n8n/workflows';

const EXAMPLES = join(REPO_ROOT, 'examples');

/** What the browser saw go wrong with the package's files while a check ran. */
class Watch {
	readonly problems: string[] = [];
	readonly schemas: Array<{ url: string; status: number }> = [];

	constructor(page: Page) {
		page.on('console', (message) => {
			if (message.type() !== 'error') return;
			const where = `${message.text()} ${message.location().url}`;
			if (/workspace-?practice/i.test(where)) this.problems.push(`console error: ${where}`);
		});
		page.on('pageerror', (error) => {
			if (/workspace-?practice/i.test(`${error.message} ${error.stack ?? ''}`))
				this.problems.push(`page error: ${error.message}`);
		});
		page.on('response', (response: Response) => {
			const url = response.url();
			if (!url.includes(PACKAGE)) return;
			if (url.includes('/schemas/')) this.schemas.push({ url, status: response.status() });
			if (response.status() >= 400)
				this.problems.push(`${response.status()} for ${url.replace(/^https?:\/\/[^/]+/, '')}`);
		});
	}

	check(what: string): void {
		if (this.problems.length)
			throw new CheckError(`${what}:\n${[...new Set(this.problems)].join('\n')}`);
	}
}

/** Names of canvas nodes that show n8n's issues mark, with what the mark's tooltip says. */
async function nodesWithIssues(page: Page): Promise<string[]> {
	const found: string[] = [];
	const nodes = page.locator('[data-test-id="canvas-node"]');
	for (let n = 0; n < (await nodes.count()); n++) {
		const node = nodes.nth(n);
		const mark = node.locator('[data-test-id="node-issues"]');
		if ((await mark.count()) === 0) continue;
		await mark.first().hover();
		await page.waitForTimeout(800);
		const tip = (
			await page
				.locator('.el-popper:visible, [role="tooltip"]:visible')
				.allInnerTexts()
				.catch(() => [])
		).join(' ');
		found.push(`${await node.getAttribute('data-node-name')}: ${tip.replace(/\s+/g, ' ').trim()}`);
		await page.mouse.move(0, 0);
	}
	return found;
}

async function openCanvas(page: Page, url: string): Promise<void> {
	await page.goto(url);
	await page.locator('[data-test-id="canvas-node"]').first().waitFor({ timeout: 30000 });
	await dismissPopups(page);
	await page.waitForTimeout(1500);
}

interface FormSeen {
	text: string;
	issues: number;
	/** The links into this repository the form shows: n8n's Docs link among them. */
	docs: string[];
}

/** Opens a node's form; returns the form's text, the parameter issues and the repository links it shows. */
async function openForm(page: Page, name: string): Promise<FormSeen> {
	const node = page.locator(`[data-test-id="canvas-node"][data-node-name="${name}"]`);
	await node.dblclick();
	const ndv = page.locator('[data-test-id="ndv"]').first();
	await ndv.waitFor({ timeout: 15000 });
	// Pick-lists load from the simulator, the input pane asks for the parent's schema.
	await page.waitForTimeout(2500);
	const text = await ndv.innerText();
	const issues = await ndv.locator('[data-test-id="parameter-issues"]').count();
	const docs = await page
		.locator(`a[href*="${REPO_URL}/"]`)
		.evaluateAll((els) => els.map((el) => el.getAttribute('href') ?? ''));
	await page.keyboard.press('Escape');
	await page.waitForTimeout(300);
	return { text, issues, docs };
}

const REPO_URL = 'github.com/workspace-practice/n8n-nodes-workspace-practice';

/**
 * The Docs link n8n built for a node (issue 41): the codex page with n8n's `?utm_…` after it, no
 * fragment (n8n appends the query after any `#`, so a fragment would match no heading), naming a page
 * of this repository that exists. The page itself is not fetched: the suite runs without the internet.
 */
export function docsLinkProblem(links: string[], page: string): string | undefined {
	const link = links.find((href) => href.includes('/docs/nodes/'));
	if (!link) return `no Docs link into docs/nodes/ (links seen: ${links.join(', ') || 'none'})`;
	const url = new URL(link);
	if (url.hash) return `${link}: a fragment n8n's query breaks`;
	if (!url.pathname.endsWith(`/blob/main/${page}`)) return `${link}: not ${page}`;
	if (!existsSync(join(REPO_ROOT, page))) return `${link}: no file ${page}`;
	return undefined;
}

function node(
	name: string,
	type: string,
	parameters: Params,
	credentials: Record<string, CredentialRef>,
	position: [number, number],
	typeVersion = 1,
): Params {
	return { name, type, typeVersion, position, parameters, credentials };
}

/** The forms a new user opens first: the trigger in both modes, the Job Trigger, the main actions. */
async function formsWorkflow(ctx: SuiteContext, secret: CredentialRef): Promise<string> {
	const api = { workspacePracticeApi: requireCredential(ctx) };
	const caseCtx: CaseContext = { fx: ctx.fx, sim: ctx.sim };
	const actions: Array<[string, string]> = [
		['Create or Update page', 'knowledgeHubPage:createOrUpdate'],
		['Create source from URL', 'knowledgeHubSource:createFromUrl'],
		['Create scenario job', 'scenarioJob:create'],
		['Get many pages', 'knowledgeHubPage:getAll'],
		['Get many sessions', 'session:getAll'],
		['Assign scenario', 'scenario:assign'],
	];
	const nodes: Params[] = [
		node('Knowledge Hub Trigger', POLL_TRIGGER_TYPE, { triggerOn: 'knowledgeHub' }, api, [0, 0]),
		node(
			'Practice Trigger',
			POLL_TRIGGER_TYPE,
			{ triggerOn: 'practice', practiceEvents: ['sessionScored'] },
			api,
			[0, 300],
		),
		node(
			'Job Trigger',
			JOB_TRIGGER_TYPE,
			{ authentication: 'headerSecret', confirmWithApi: true },
			{ ...api, workspacePracticeWebhookSecretApi: secret },
			[0, 600],
			2,
		),
	];
	for (const [n, [name, key]] of actions.entries())
		nodes.push(node(name, ACTION_TYPE, await CASES[key].params(caseCtx), api, [260 * (n + 1), 0]));
	// A chain from the trigger: each form's input pane shows the schema of the node before it.
	const chain = ['Knowledge Hub Trigger', ...actions.map(([name]) => name)];
	const connections: Params = {};
	for (let n = 0; n + 1 < chain.length; n++)
		connections[chain[n]] = { main: [[{ node: chain[n + 1], type: 'main', index: 0 }]] };
	const created = await ctx.api.createWorkflow({
		name: 'e2e editor: forms',
		nodes: nodes.map((n, i) => ({ id: `00000000-0000-4000-8000-00000000000${i}`, ...n })),
		connections,
		settings: { executionOrder: 'v1' },
	} as never);
	return created.id;
}

/** Every schema file through n8n's own route: what the editor's schema view asks for. */
async function schemaUrls(baseUrl: string): Promise<string> {
	const urls: string[] = [];
	for (const [resource, module] of Object.entries(resources))
		for (const operation of Object.keys(module.operations))
			for (const type of [ACTION_TYPE, TOOL_TYPE])
				urls.push(`${baseUrl}/schemas/${type}/1.0.0/${resource}/${operation}.json`);
	urls.push(`${baseUrl}/schemas/${POLL_TRIGGER_TYPE}/1.0.0.json`);
	urls.push(`${baseUrl}/schemas/${JOB_TRIGGER_TYPE}/2.0.0.json`);
	const failed: string[] = [];
	for (const url of urls) {
		const res = await fetch(url);
		const body = res.ok ? ((await res.json()) as { type?: string; properties?: object }) : {};
		if (!res.ok || body.type !== 'object' || !Object.keys(body.properties ?? {}).length)
			failed.push(`${res.status} ${url.slice(baseUrl.length)}`);
	}
	if (failed.length) throw new CheckError(`schemas n8n does not serve:\n${failed.join('\n')}`);
	return `${urls.length} schemas served (every operation, also as a tool, both triggers)`;
}

export async function editorSteps(ctx: SuiteContext): Promise<void> {
	const { report } = ctx;
	if (ctx.major !== 2 || ctx.queueMode) {
		report.skip('editor: forms and examples in a browser', 'runs on n8n 2.x, single process');
		return;
	}
	const base = ctx.n8n.baseUrl;
	await report.step('editor: n8n serves an output schema for every operation and trigger', () =>
		schemaUrls(base),
	);

	// Credentials as the examples name them, so importing can fill every slot (issue 35, point 8).
	const examples = readdirSync(EXAMPLES).filter((f) => f.endsWith('.json'));
	let secret: CredentialRef | undefined;
	const ready = await report.step('editor: credentials named as in the examples', async () => {
		const names = new Map<string, string>();
		for (const file of examples) {
			const json = JSON.parse(readFileSync(join(EXAMPLES, file), 'utf8')) as {
				nodes: Array<{ credentials?: Record<string, { name: string }> }>;
			};
			for (const n of json.nodes)
				for (const [type, ref] of Object.entries(n.credentials ?? {})) names.set(type, ref.name);
		}
		const data: Record<string, Record<string, unknown>> = {
			workspacePracticeApi: { baseUrl: ctx.sim.baseUrl, apiKey: ctx.sim.apiKey },
			workspacePracticeWebhookSecretApi: {
				headerName: 'X-Webhook-Secret',
				secret: 'an-e2e-secret-of-enough-length',
			},
			openAiApi: { apiKey: 'sk-e2e-not-used', header: false },
			httpBearerAuth: { token: 'e2e-token-not-used-0123456789' },
		};
		for (const [type, name] of names) {
			if (!data[type]) throw new CheckError(`no test data for credential type ${type}`);
			const created = await ctx.api.createCredential(name, type, data[type]);
			if (type === 'workspacePracticeWebhookSecretApi') secret = created;
		}
		return [...names].map(([type, name]) => `${type} "${name}"`).join(', ');
	});
	if (!ready || !secret) return;

	const browser = await launchChromium();
	try {
		const page = await browser.newPage({ viewport: { width: 1440, height: 1000 } });
		page.on('dialog', (dialog) => void dialog.accept());
		await login(page, base);
		const watch = new Watch(page);
		const formsId = await formsWorkflow(ctx, secret);

		await report.step(
			'editor: the forms open without issues; notices say cost and buttons',
			async () => {
				await openCanvas(page, `${base}/workflow/${formsId}`);
				const marked = await nodesWithIssues(page);
				if (marked.length) throw new CheckError(`nodes with issues:\n${marked.join('\n')}`);
				const names = await page
					.locator('[data-test-id="canvas-node"]')
					.evaluateAll((els) => els.map((el) => el.getAttribute('data-node-name') ?? ''));
				const withIssues: string[] = [];
				const texts: Record<string, string> = {};
				const docs: Record<string, string[]> = {};
				for (const name of names) {
					const form = await openForm(page, name);
					texts[name] = form.text;
					docs[name] = form.docs;
					if (form.issues) withIssues.push(`${name}: ${form.issues} parameter issue(s)`);
				}
				if (withIssues.length) throw new CheckError(withIssues.join('\n'));
				// The Docs link n8n builds lands on the node's own page (issue 41, point 3).
				const docsProblems = names.flatMap((name) => {
					const page = /Job Trigger/.test(name)
						? 'docs/nodes/workspace-practice-job-trigger.md'
						: /Trigger/.test(name)
							? 'docs/nodes/workspace-practice-trigger.md'
							: 'docs/nodes/workspace-practice.md';
					const problem = docsLinkProblem(docs[name], page);
					return problem ? [`${name}: ${problem}`] : [];
				});
				if (docsProblems.length) throw new CheckError(docsProblems.join('\n'));
				expect(
					new RegExp(`Poll Times.*at most ${DEFAULT_MAX_READS} times a day`, 's').test(
						texts['Knowledge Hub Trigger'],
					),
					'Knowledge Hub Changes: no notice of Poll Times and the read quota on the form',
				);
				expect(
					/A read costs 1 request.*a day/s.test(texts['Practice Trigger']),
					'Practice Results: no cost notice on the form',
				);
				expect(
					/Execute step/.test(texts['Job Trigger']) &&
						!/Listen for test event/.test(texts['Job Trigger']),
					'Job Trigger: the notice does not name the "Execute step" button',
				);
				watch.check('the forms');
				const served = watch.schemas.filter((s) => s.status === 200).length;
				expect(served > 0, 'the editor asked for no schema of the package');
				return `${names.length} forms, ${served} schema previews loaded, every Docs link on its node's page`;
			},
		);

		for (const file of examples) {
			await report.step(`editor: examples/${file} imported from its file`, async () => {
				const before = watch.problems.length;
				await page.goto(`${base}/workflow/new`);
				await page.locator('[data-test-id="workflow-import-input"]').waitFor({
					state: 'attached',
					timeout: 30000,
				});
				await dismissPopups(page);
				await page
					.locator('[data-test-id="workflow-import-input"]')
					.setInputFiles(join(EXAMPLES, file));
				const json = JSON.parse(readFileSync(join(EXAMPLES, file), 'utf8')) as {
					nodes: Array<{ name: string; type: string }>;
				};
				// The templates open with sticky notes, which the canvas draws apart from its nodes.
				const nodes = json.nodes.filter((n) => !n.type.endsWith('.stickyNote'));
				await page
					.locator(`[data-test-id="canvas-node"][data-node-name="${nodes[0].name}"]`)
					.waitFor({ timeout: 30000 });
				await page.waitForTimeout(2000);
				const shown = await page.locator('[data-test-id="canvas-node"]').count();
				expect(
					shown === nodes.length || shown === json.nodes.length,
					`${shown} of ${nodes.length} nodes shown`,
				);
				const unknown = await page.getByText(/not (currently )?installed|unknown node/i).count();
				expect(unknown === 0, 'a node shows as not installed');
				const marked = await nodesWithIssues(page);
				if (marked.length) throw new CheckError(`nodes with issues:\n${marked.join('\n')}`);
				if (watch.problems.length > before)
					throw new CheckError(watch.problems.slice(before).join('\n'));
				return `${shown} nodes, every credential filled in, no issue`;
			});
		}
	} finally {
		await browser.close();
	}
}
