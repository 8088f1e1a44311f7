/**
 * What a new user tripped on in the real editor (issue 35), held against the node descriptions as n8n's
 * editor reads them: n8n-workflow's own getNodeParameters (what the editor runs after every change),
 * the node picker's merge of a trigger into its action node, the Options list's label width.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import type { INode, INodeProperties, INodeTypeDescription } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { WorkspacePractice } from '../../nodes/WorkspacePractice/WorkspacePractice.node.js';
import { WorkspacePracticeJobTrigger } from '../../nodes/WorkspacePracticeJobTrigger/WorkspacePracticeJobTrigger.node.js';
import { WorkspacePracticeTrigger } from '../../nodes/WorkspacePracticeTrigger/WorkspacePracticeTrigger.node.js';

const action = new WorkspacePractice().description;
const trigger = new WorkspacePracticeTrigger().description;
const jobTrigger = new WorkspacePracticeJobTrigger().description;

const nodeOf = (d: INodeTypeDescription): INode => ({
	id: '1',
	name: d.displayName,
	type: d.name,
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
});

/** The parameters as the editor keeps them after a change (defaults left out). */
const asEditorKeeps = (d: INodeTypeDescription, values: Record<string, unknown>) =>
	NodeHelpers.getNodeParameters(d.properties, values as never, false, false, nodeOf(d), d);

/** Every collection option, with the collection it is in. */
function collectionOptions(
	d: INodeTypeDescription,
): Array<{ in: string; option: INodeProperties }> {
	return d.properties
		.filter((p) => p.type === 'collection')
		.flatMap((p) => (p.options as INodeProperties[]).map((option) => ({ in: p.name, option })));
}

describe('the editor, as a new user meets it', () => {
	it('Knowledge Hub Changes shows its schedule (Poll Times and the read quota) and daily cost on the form, not only in Options', () => {
		const notices = trigger.properties.filter(
			(p) => p.type === 'notice' && p.displayOptions?.show?.triggerOn?.includes('knowledgeHub'),
		);
		expect(notices.map((n) => n.displayName).join(' ')).toMatch(
			/Poll Times.*at most 12 times a day.*Max Reads a Day.*every 2 hours.*1,000 requests a day/s,
		);
	});

	it('labels in the Options and Filters lists fit (26 characters) in every node', () => {
		const long = [action, trigger, jobTrigger].flatMap((d) =>
			collectionOptions(d)
				.filter(({ option }) => option.displayName.length > 26)
				// n8n's lint wants dynamic multi-selects to end "Names or IDs": those may run longer.
				.filter(({ option }) => !option.displayName.endsWith('Names or IDs'))
				.map(({ in: where, option }) => `${d.displayName} → ${where} → ${option.displayName}`),
		);
		expect(long).toEqual([]);
	});

	it("the trigger's description, which n8n's node picker puts on the merged app entry, reads for the actions too", () => {
		// n8n merges "<name>Trigger" into "<name>" and shows the trigger's description on that entry.
		expect(trigger.name.replace('Trigger', '')).toBe(action.name);
		expect(trigger.description).not.toMatch(/^Starts the workflow/);
		expect(trigger.description).toMatch(/scenarios/);
		expect(action.description).not.toMatch(/^Starts the workflow/);
	});

	it('no parameter name has a different default or type in another operation (n8n carries values by name)', () => {
		// Allowed: the Operation dropdown itself; the AI tool variant's own default of the same operation's
		// wait mode; each resource's own Filters → Status and Sort → Field values.
		const allowed = new Set([
			'operation',
			'waitUntilReady',
			'waitForCompletion',
			'filters.status',
			'sort.field',
		]);
		const seen = new Map<string, Set<string>>();
		const walk = (props: INodeProperties[], prefix: string) => {
			for (const p of props) {
				if (p.type === 'notice') continue;
				const key = prefix + p.name;
				seen.set(key, (seen.get(key) ?? new Set()).add(`${p.type} ${JSON.stringify(p.default)}`));
				if (p.type === 'collection') walk(p.options as INodeProperties[], `${key}.`);
			}
		};
		walk(action.properties, '');
		const clashes = [...seen]
			.filter(([key, variants]) => variants.size > 1 && !allowed.has(key))
			.map(([key, variants]) => `${key}: ${[...variants].join(' | ')}`);
		expect(clashes).toEqual([]);
	});

	it('Create or Update and Update say in the label that the folder list replaces the folders', () => {
		const labels = collectionOptions(action)
			.filter(({ option }) => option.name === 'folder_ids')
			.map(({ option }) => option.displayName);
		expect(labels).toContain('Replace With Folder Names or IDs');
		// Create sets the list of a new page: its label stays plain.
		expect(labels).toContain('Folder Names or IDs');
	});

	it('an empty Members filter: n8n drops it at the next change of the form, and the field says so', () => {
		// What n8n's editor stores when Members is added (CollectionParameter: {} for a multi-row fixed
		// collection, whatever its default), then its clean-up after the next filter is added.
		const kept = asEditorKeeps(trigger, {
			triggerOn: 'practice',
			practiceEvents: ['sessionScored'],
			practiceFilters: { members: {}, rank: [] },
		}) as { practiceFilters: Record<string, unknown> };
		expect(Object.keys(kept.practiceFilters)).not.toContain('members');
		const membersFields = [action, trigger].flatMap((d) =>
			collectionOptions(d).filter(({ option }) => option.name === 'members'),
		);
		expect(membersFields.length).toBeGreaterThan(2);
		for (const { option } of membersFields)
			expect(option.description).toMatch(/Add a member right away/);
	});

	it('Score At or Above and Score Below added at their defaults still match a range of scores', () => {
		const score = (name: string) =>
			collectionOptions(trigger).find(({ option }) => option.name === name)!.option
				.default as number;
		expect(score('scoreAtLeast')).toBeLessThan(score('scoreBelow'));
	});

	it('Programs says why it is typed: the service lists no programs', () => {
		const programs = collectionOptions(trigger).find(
			({ option }) => option.name === 'program_ids',
		)!.option;
		expect(programs.type).toBe('string');
		expect(programs.description).toMatch(/no list of programs/);
	});

	it('examples name each credential type alike, and a node with two slots refers to them by name', () => {
		// n8n's import drops a reference whose ID it does not know and then fills in one credential per
		// node (the newest); a reference with ID null it keeps and matches by name.
		const dir = path.join(__dirname, '..', '..', 'examples');
		const names = new Map<string, Set<string>>();
		const twoSlots: string[] = [];
		for (const file of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
			const workflow = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as {
				nodes: Array<{
					name: string;
					credentials?: Record<string, { id: string | null; name: string }>;
				}>;
			};
			for (const node of workflow.nodes) {
				const refs = Object.entries(node.credentials ?? {});
				for (const [type, ref] of refs)
					names.set(type, (names.get(type) ?? new Set()).add(ref.name));
				if (refs.length > 1) {
					twoSlots.push(`${file} ${node.name}`);
					for (const [type, ref] of refs)
						expect([file, node.name, type, ref.id]).toEqual([file, node.name, type, null]);
				}
			}
		}
		for (const [type, set] of names) expect([type, set.size]).toEqual([type, 1]);
		expect(twoSlots).toEqual(['job-callbacks-to-team.json Scenario job finished']);
	});
});
