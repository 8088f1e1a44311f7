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
