/**
 * Issue 57: pictures that cannot go stale silently. docs/images/manifest.json, written by
 * `npm run screenshots`, holds what each picture was taken from (scripts/n8n/pictures.ts: the fields a
 * form shows, the workflow a canvas shows); a form or workflow changed since fails here until the
 * pictures are taken again.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { INodeProperties } from 'n8n-workflow';

import { WorkspacePractice } from '../../nodes/WorkspacePractice/WorkspacePractice.node.js';
import { MANIFEST, pictureEntries, type PictureEntry } from '../../scripts/n8n/pictures';

const ROOT = join(__dirname, '..', '..');
const recorded = (
	JSON.parse(readFileSync(MANIFEST, 'utf8')) as { pictures: Record<string, PictureEntry> }
).pictures;

test('every picture in docs/images and examples/images says what it was taken from, and no entry lacks its picture', () => {
	const pngs = ['docs/images', 'examples/images'].flatMap((dir) =>
		readdirSync(join(ROOT, dir))
			.filter((f) => f.endsWith('.png'))
			.map((f) => `${dir}/${f}`),
	);
	expect(Object.keys(recorded).sort()).toEqual(pngs.sort());
	expect(Object.keys(pictureEntries()).sort()).toEqual(pngs.sort());
});

test('no form or workflow changed since its picture was taken (else: npm run screenshots)', () => {
	const now = pictureEntries();
	const stale = Object.keys(now)
		.filter((file) => recorded[file]?.from !== now[file].from)
		.map((file) => `${file}: ${now[file].shows} changed since the picture`);
	expect(stale).toEqual([]);
});

test("a changed hint on a form that is pictured changes its picture's fingerprint; one in an unset option does not", () => {
	const properties = new WorkspacePractice().description.properties;
	const before = pictureEntries()['docs/images/scenario-job-create.png'].from;
	const prompt = properties.find(
		(p) => p.name === 'prompt' && p.displayOptions?.show?.resource?.includes('scenarioJob'),
	) as INodeProperties;
	const additional = properties.find(
		(p) =>
			p.type === 'collection' &&
			p.displayOptions?.show?.resource?.includes('scenarioJob') &&
			(p.options as INodeProperties[]).some((o) => o.name === 'callbackUrl'),
	) as INodeProperties;
	const callbackUrl = (additional.options as INodeProperties[]).find(
		(o) => o.name === 'callbackUrl',
	) as INodeProperties;
	const [promptText, callbackText] = [prompt.description, callbackUrl.description];
	try {
		callbackUrl.description = `${callbackText} (changed)`;
		expect(pictureEntries()['docs/images/scenario-job-create.png'].from).toBe(before);
		prompt.description = `${promptText} (changed)`;
		expect(pictureEntries()['docs/images/scenario-job-create.png'].from).not.toBe(before);
	} finally {
		prompt.description = promptText;
		callbackUrl.description = callbackText;
	}
});
