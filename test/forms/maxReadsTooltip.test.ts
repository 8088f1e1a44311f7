/**
 * Issue 49: the Max Reads a Day tooltip was six lines with a cron string in it. It says what the
 * number does and what it costs; working-hours set-ups are in docs/triggers.md.
 */
import type { INodeProperties } from 'n8n-workflow';

import { WorkspacePracticeTrigger } from '../../nodes/WorkspacePracticeTrigger/WorkspacePracticeTrigger.node.js';

const options = new WorkspacePracticeTrigger().description.properties.flatMap((p) =>
	p.type === 'collection' ? ((p.options ?? []) as INodeProperties[]) : [],
);
const maxReads = options.filter((o) => o.name === 'maxReadsPerDay');

test('every family has one, and none holds a cron string', () => {
	expect(maxReads.length).toBe(3);
	for (const option of maxReads) expect(option.description).not.toMatch(/\*\/|\* \*/);
});

test('Practice Results and Knowledge Hub Changes say it in at most 200 characters', () => {
	// Skill Tiers' wording is its own family's (it reads once a day by default).
	const short = maxReads.filter((o) => String(o.description).length <= 200);
	expect(short.length).toBeGreaterThanOrEqual(2);
});

test('Knowledge Hub Changes reads 12 times a day by default, and the form says what that costs (issue 48)', () => {
	// At 48 a read every 30 minutes of pages and sources took 96 of a team's 1,000 requests a day.
	const properties = new WorkspacePracticeTrigger().description.properties;
	const kh = properties.find((p) => p.name === 'options')?.options as INodeProperties[];
	const option = kh.find((o) => o.name === 'maxReadsPerDay');
	expect(option?.default).toBe(12);
	expect(option?.description).toMatch(
		/1 request for pages and 1 for Source Ready: at 12, 24 a day/,
	);
	const notice = properties.find((p) => p.name === 'knowledgeHubCostNotice');
	expect(notice?.displayName).toMatch(/a read every 2 hours.*24 with Source Ready/);
});
