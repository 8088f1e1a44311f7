/**
 * `npm run screenshots`: pictures of the node's forms in a real n8n editor, for the README, and of each
 * template's canvas for its gallery page (examples/images/<file>.png; `-- --templates` takes only
 * those). Starts the ready instance (n8n + package + simulator credential + examples), drives the
 * machine's Chromium headless with playwright-core, and saves PNGs to docs/images/.
 * Chromium: scripts/n8n/browser.ts.
 */
import { mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

import type { Page } from 'playwright-core';

import { dismissPopups, launchChromium, login } from './n8n/browser';
import { startReadyInstance, type ReadyInstance } from './n8n/instance';
import { REPO_ROOT } from './n8n/paths';

const OUT = join(REPO_ROOT, 'docs', 'images');
const TEMPLATE_IMAGES = join(REPO_ROOT, 'examples', 'images');
const ACTION = 'n8n-nodes-workspace-practice.workspacePractice';

/** One extra workflow whose node shows a Get Many form with Filters filled in. */
async function addGetManyWorkflow(instance: ReadyInstance): Promise<string> {
	const credential = { id: instance.credentialId, name: 'Workspace Practice account' };
	const fx = instance.sim.control.fixtures();
	const created = await instance.api.createWorkflow({
		name: 'Knowledge Hub pages (Get Many with filters)',
		nodes: [
			{
				id: 'a1b2c3d4-0000-4000-8000-000000000001',
				name: 'Recently published pages',
				type: ACTION,
				typeVersion: 1,
				position: [0, 0],
				parameters: {
					resource: 'knowledgeHubPage',
					operation: 'getAll',
					returnAll: false,
					limit: 20,
					filters: {
						status: 'published',
						folder_id: {
							__rl: true,
							mode: 'list',
							value: fx.folders.sales.id,
							cachedResultName: fx.folders.sales.name,
						},
						owner_id: {
							__rl: true,
							mode: 'list',
							value: fx.apiUser.id,
							cachedResultName: `${fx.apiUser.first_name} ${fx.apiUser.last_name} <${fx.apiUser.email}>`,
						},
						updated_after: '2026-01-01T00:00:00',
					},
					sort: { field: 'updated_at' },
				},
				credentials: { workspacePracticeApi: credential },
			},
		],
		connections: {},
	});
	return created.id;
}

/** Opens a workflow, double-clicks a node to open its form, and saves the form. */
async function shootNode(
	page: Page,
	baseUrl: string,
	workflowId: string,
	nodeName: string,
	file: string,
): Promise<void> {
	await page.goto(`${baseUrl}/workflow/${workflowId}`);
	const node = page.locator(`[data-test-id="canvas-node"][data-node-name="${nodeName}"]`);
	await node.waitFor({ timeout: 30000 });
	await dismissPopups(page);
	await node.dblclick();
	const ndv = page.locator('[data-test-id="ndv"]').first();
	await ndv.waitFor({ timeout: 15000 });
	// Let pick-lists load their options from the simulator before the picture.
	await page.waitForTimeout(2500);
	await page.mouse.move(0, 0);
	await page.screenshot({ path: join(OUT, file) });
	console.log(`saved docs/images/${file}`);
}

async function shootCanvas(
	page: Page,
	baseUrl: string,
	workflowId: string,
	file: string,
): Promise<void> {
	await page.goto(`${baseUrl}/workflow/${workflowId}`);
	await page.locator('[data-test-id="canvas-node"]').first().waitFor({ timeout: 30000 });
	await dismissPopups(page);
	await page.waitForTimeout(1500);
	await page.screenshot({ path: join(OUT, file) });
	console.log(`saved docs/images/${file}`);
}

/** The whole template on the canvas (n8n's "zoom to fit", key 1), sticky notes and all. */
async function shootTemplate(
	page: Page,
	baseUrl: string,
	workflowId: string,
	file: string,
): Promise<void> {
	await page.goto(`${baseUrl}/workflow/${workflowId}`);
	await page.locator('[data-test-id="canvas-node"]').first().waitFor({ timeout: 30000 });
	await dismissPopups(page);
	await page
		.locator('[data-test-id="canvas-node"]')
		.first()
		.click({ position: { x: 2, y: 2 } });
	await page.keyboard.press('Escape');
	await page.keyboard.press('1');
	await page.waitForTimeout(1500);
	await page.mouse.move(0, 0);
	await page.screenshot({ path: join(TEMPLATE_IMAGES, file) });
	console.log(`saved examples/images/${file}`);
}

async function main(): Promise<void> {
	const templatesOnly = process.argv.includes('--templates');
	mkdirSync(OUT, { recursive: true });
	mkdirSync(TEMPLATE_IMAGES, { recursive: true });
	const instance = await startReadyInstance((line) => console.log(line));
	const browser = await launchChromium();
	try {
		const page = await browser.newPage({ viewport: { width: 1440, height: 1200 } });
		const base = instance.n8n.baseUrl;
		await login(page, base);
		for (const file of readdirSync(join(REPO_ROOT, 'examples')).filter((f) => f.endsWith('.json')))
			await shootTemplate(page, base, instance.workflows[file], file.replace(/\.json$/, '.png'));
		if (templatesOnly) return;
		const deals = instance.workflows['scenarios-from-deals.json'];
		const callbacks = instance.workflows['job-callbacks-to-team.json'];
		const watcher = instance.workflows['knowledge-hub-watcher.json'];
		await shootCanvas(page, base, deals, 'workflow-scenarios-from-deals.png');
		await shootNode(page, base, deals, 'Create scenario and wait', 'scenario-job-create.png');
		await shootNode(
			page,
			base,
			await addGetManyWorkflow(instance),
			'Recently published pages',
			'knowledge-hub-pages-get-many.png',
		);
		await shootNode(page, base, callbacks, 'Scenario job finished', 'job-trigger.png');
		await shootNode(page, base, watcher, 'New or published page', 'knowledge-hub-trigger.png');
	} catch (error) {
		console.error(instance.n8n.logTail(20));
		throw error;
	} finally {
		await browser.close();
		await instance.stop();
	}
}

main().catch((error: unknown) => {
	console.error(error instanceof Error ? error.message : error);
	process.exit(1);
});
