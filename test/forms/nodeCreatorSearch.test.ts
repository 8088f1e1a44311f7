/**
 * The node creator's search (n8n 1.x and 2.x) matches a node by its display name and its codex
 * `alias` list only. A newcomer searching for a resource the node has ("member", "assignment",
 * "session") must find it: every resource of the action node and every Trigger On family of the
 * trigger is an alias, in lower case as people type it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { resources } from '../../nodes/WorkspacePractice/actions/resources';
import { FAMILIES } from '../../nodes/WorkspacePracticeTrigger/families';

const ROOT = join(__dirname, '..', '..');
const aliasesOf = (codex: string): string[] =>
	(JSON.parse(readFileSync(join(ROOT, codex), 'utf8')) as { alias: string[] }).alias;

const action = aliasesOf('nodes/WorkspacePractice/WorkspacePractice.node.json');
const trigger = aliasesOf('nodes/WorkspacePracticeTrigger/WorkspacePracticeTrigger.node.json');
const jobTrigger = aliasesOf(
	'nodes/WorkspacePracticeJobTrigger/WorkspacePracticeJobTrigger.node.json',
);

describe('node creator aliases', () => {
	it.each(Object.values(resources).map((resource) => resource.option.name))(
		'the action node is found by its resource "%s"',
		(name) => {
			expect(action).toContain(name.toLowerCase());
		},
	);

	it.each(FAMILIES.map((family) => String(family.option.name)))(
		'the trigger is found by its Trigger On "%s"',
		(name) => {
			expect(trigger).toContain(name.toLowerCase());
		},
	);

	it('the words the issue searched for find a node', () => {
		for (const word of ['member', 'assignment', 'session']) expect(action).toContain(word);
		expect(trigger).toEqual(expect.arrayContaining(['session scored', 'tier changed']));
		expect(jobTrigger).toContain('scenario job');
	});

	it('are lower case and not repeated', () => {
		for (const list of [action, trigger, jobTrigger]) {
			expect(list.every((alias) => alias === alias.toLowerCase())).toBe(true);
			expect(new Set(list).size).toBe(list.length);
		}
	});
});
