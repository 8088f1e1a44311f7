/**
 * The machine's Chromium driven by playwright-core, for the README's pictures (scripts/screenshots.ts)
 * and the real-n8n suite's editor check (e2e/steps/editor.ts).
 *
 * Needs Debian's chromium (`apt-get install -y chromium`; installed here when missing) or
 * CHROMIUM_PATH pointing at another Chromium.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

import { chromium, type Browser, type Page } from 'playwright-core';

import { OWNER } from './api';

export function chromiumPath(): string {
	const candidates = [
		process.env.CHROMIUM_PATH,
		'/usr/bin/chromium',
		'/usr/bin/chromium-browser',
	].filter((p): p is string => !!p);
	const found = candidates.find((p) => existsSync(p));
	if (found) return found;
	const asRoot = process.getuid?.() === 0 ? [] : ['sudo', '-n'];
	const run = (cmd: string[]): void => {
		const [bin, ...rest] = [...asRoot, ...cmd];
		execFileSync(bin, rest, {
			stdio: 'inherit',
			env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
		});
	};
	run(['apt-get', 'update']);
	run(['apt-get', 'install', '-y', '--no-install-recommends', 'chromium']);
	if (!existsSync('/usr/bin/chromium')) throw new Error('chromium did not install');
	return '/usr/bin/chromium';
}

export async function launchChromium(): Promise<Browser> {
	return await chromium.launch({
		executablePath: chromiumPath(),
		headless: true,
		args: ['--no-sandbox', '--disable-dev-shm-usage'],
	});
}

/** Signs in as the owner the suite and the editor instance create. */
export async function login(page: Page, baseUrl: string): Promise<void> {
	await page.goto(`${baseUrl}/signin`);
	await page.locator('input[type=email], input[name=emailOrLdapLoginId]').first().fill(OWNER.email);
	await page.locator('input[type=password]').first().fill(OWNER.password);
	await page.keyboard.press('Enter');
	await page.waitForURL((url) => !url.pathname.includes('signin'), { timeout: 30000 });
}

/** Closes the pop-ups a fresh instance shows over the canvas. */
export async function dismissPopups(page: Page): Promise<void> {
	for (let i = 0; i < 3; i++) await page.keyboard.press('Escape');
}
