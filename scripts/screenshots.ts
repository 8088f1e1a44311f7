/**
 * `npm run screenshots`: pictures of the node's forms in a real n8n editor, for the README, and of each
 * template's canvas for its gallery page (examples/images/<file>.png; `-- --templates` takes only
 * those). Starts the ready instance (n8n + package + simulator credential + examples), drives the
 * machine's Chromium headless with playwright-core, and saves PNGs to docs/images/, with what each was
 * taken from in docs/images/manifest.json (scripts/n8n/pictures.ts; a test fails when a form changed
 * since its picture).
 * Chromium: scripts/n8n/browser.ts.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import type { Page } from 'playwright-core';

import { dismissPopups, launchChromium, login } from './n8n/browser';
import { startReadyInstance, type ReadyInstance } from './n8n/instance';
import { REPO_ROOT } from './n8n/paths';
import {
	CANVAS_PICTURES,
	exampleFiles,
	FORM_PICTURES,
	getManyNode,
	MANIFEST,
	MANIFEST_NOTE,
	pictureEntries,
	type PictureEntry,
} from './n8n/pictures';

const OUT = join(REPO_ROOT, 'docs', 'images');
const TEMPLATE_IMAGES = join(REPO_ROOT, 'examples', 'images');

/** One extra workflow whose node shows a Get Many form with Filters filled in (pictures.ts). */
async function addGetManyWorkflow(instance: ReadyInstance): Promise<string> {
	const credential = { id: instance.credentialId, name: 'Workspace Practice account' };
	const created = await instance.api.createWorkflow({
		name: 'Knowledge Hub pages (Get Many with filters)',
		nodes: [
			{
				id: 'a1b2c3d4-0000-4000-8000-000000000001',
				...getManyNode(instance.sim.control.fixtures()),
				credentials: { workspacePracticeApi: credential },
			},
		],
		connections: {},
	});
	return created.id;
}

/** Records what the pictures just taken were taken from (pictures.ts; test/forms/pictures.test.ts). */
function writeManifest(taken: string[]): void {
	const now = pictureEntries();
	const before = existsSync(MANIFEST)
		? (JSON.parse(readFileSync(MANIFEST, 'utf8')) as { pictures: Record<string, PictureEntry> })
				.pictures
		: {};
	const pictures = { ...before };
	for (const file of taken) pictures[file] = now[file];
	const manifest = { '//': MANIFEST_NOTE, pictures };
	writeFileSync(MANIFEST, `${JSON.stringify(manifest, null, '\t')}\n`);
	console.log(`saved docs/images/manifest.json (${taken.length} pictures)`);
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
		const taken: string[] = [];
		for (const file of exampleFiles()) {
			const png = file.replace(/\.json$/, '.png');
			await shootTemplate(page, base, instance.workflows[file], png);
			taken.push(`examples/images/${png}`);
		}
		if (!templatesOnly) {
			for (const { file, example } of CANVAS_PICTURES) {
				await shootCanvas(page, base, instance.workflows[example], file);
				taken.push(`docs/images/${file}`);
			}
			for (const { file, example, node } of FORM_PICTURES) {
				const workflow = example ? instance.workflows[example] : await addGetManyWorkflow(instance);
				await shootNode(page, base, workflow, node, file);
				taken.push(`docs/images/${file}`);
			}
		}
		writeManifest(taken);
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
