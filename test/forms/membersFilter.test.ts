/**
 * The Members filter in n8n's editor (issue 57), replayed step by step as the editor runs them, with the
 * installed n8n-workflow:
 * - adding a collection option (CollectionParameter.optionSelected): a multi-row fixedCollection is
 *   stored as {} (whatever its default), a multi-value field as [default], anything else as its default;
 * - "Add Member" (FixedCollectionParameter.optionSelected): one row of the option's defaults;
 * - every change (NodeSettings valueChanged): getNodeParameters(stored, returnDefaults false), the new
 *   value set at its path, then getNodeParameters(…, returnDefaults true), which is what is stored.
 * A multi-row fixedCollection with no rows is dropped by the first call, so an added, still empty
 * Members filter vanishes at the next change: no default or option of the field changes that, so the
 * field says to add a member right away, and a row added (even left empty) survives and filters nothing.
 */
import type {
	IDataObject,
	INode,
	INodeParameters,
	INodeProperties,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeHelpers, deepCopy } from 'n8n-workflow';

import { members, toQuery } from '../../nodes/shared/fields/filter.fields';
import { WorkspacePractice } from '../../nodes/WorkspacePractice/WorkspacePractice.node.js';
import { WorkspacePracticeTrigger } from '../../nodes/WorkspacePracticeTrigger/WorkspacePracticeTrigger.node.js';

const action = new WorkspacePractice().description;
const trigger = new WorkspacePracticeTrigger().description;

const nodeOf = (d: INodeTypeDescription, parameters: INodeParameters): INode => ({
	id: '1',
	name: d.displayName,
	type: d.name,
	typeVersion: 1,
	position: [0, 0],
	parameters,
});

/** A form as the editor holds it: the stored parameters, changed as the editor changes them. */
function editorForm(d: INodeTypeDescription, initial: INodeParameters) {
	const full = (values: INodeParameters) =>
		NodeHelpers.getNodeParameters(d.properties, values, true, false, nodeOf(d, values), d)!;
	let stored = full(initial);

	/** NodeSettings' valueChanged for `parameters.<path>`. */
	const change = (path: string[], value: unknown) => {
		const kept = deepCopy(
			NodeHelpers.getNodeParameters(d.properties, stored, false, false, nodeOf(d, stored), d) ?? {},
		);
		let at = kept as Record<string, unknown>;
		for (const key of path.slice(0, -1)) at = (at[key] ??= {}) as Record<string, unknown>;
		at[path[path.length - 1]] = value;
		stored = full(kept);
	};

	const collection = (name: string) =>
		d.properties.find(
			(p) =>
				p.name === name &&
				p.type === 'collection' &&
				NodeHelpers.displayParameter(stored, p, nodeOf(d, stored), d),
		)!;

	return {
		values: (name: string) => (stored[name] ?? {}) as IDataObject,
		/** "Add Filter" → option (CollectionParameter.optionSelected). */
		addOption(name: string, optionName: string) {
			const option = (collection(name).options as INodeProperties[]).find(
				(o) => o.name === optionName,
			)!;
			const current = (stored[name] as Record<string, unknown> | undefined)?.[optionName];
			const value =
				option.typeOptions?.multipleValues === true
					? option.type === 'fixedCollection'
						? (current ?? {})
						: [...((current as unknown[]) ?? []), deepCopy(option.default)]
					: deepCopy(option.default);
			change([name, optionName], value);
		},
		/** The fixedCollection's "Add Member" button (FixedCollectionParameter.optionSelected). */
		addRow(name: string, optionName: string) {
			const field = (collection(name).options as INodeProperties[]).find(
				(o) => o.name === optionName,
			)!;
			const [row] = field.options as Array<{ name: string; values: INodeProperties[] }>;
			const values = Object.fromEntries(row.values.map((v) => [v.name, deepCopy(v.default)]));
			const current = (stored[name] as Record<string, Record<string, unknown[]>>)[optionName];
			change([name, optionName, row.name], [...(current[row.name] ?? []), values]);
		},
	};
}

const forms = [
	{
		node: action,
		initial: { resource: 'assignment', operation: 'getAll' },
		filters: 'filters',
		next: 'status',
	},
	{
		node: trigger,
		initial: { triggerOn: 'practice', practiceEvents: ['sessionScored'] },
		filters: 'practiceFilters',
		next: 'rank',
	},
];

describe.each(forms)('the Members filter of $node.displayName → $filters', (form) => {
	it('added and left empty: n8n drops it when the next filter is added, and the field says so', () => {
		const editor = editorForm(form.node, form.initial);
		editor.addOption(form.filters, 'members');
		// Shown right after being added (n8n keeps {} while it fills in defaults)…
		expect(editor.values(form.filters)).toHaveProperty('members', {});
		editor.addOption(form.filters, form.next);
		// …and gone after the next change: this is n8n's, whatever the field's default.
		expect(Object.keys(editor.values(form.filters))).toEqual([form.next]);
		const field = (
			form.node.properties.find((p) => p.name === form.filters)!.options as INodeProperties[]
		).find((o) => o.name === 'members')!;
		expect(field.description).toMatch(/Add a member right away/);
	});

	it('with a member row added right away, it stays when the next filter is added; an empty row filters nothing', () => {
		const editor = editorForm(form.node, form.initial);
		editor.addOption(form.filters, 'members');
		editor.addRow(form.filters, 'members');
		editor.addOption(form.filters, form.next);
		const filters = editor.values(form.filters);
		expect(Object.keys(filters).sort()).toEqual(['members', form.next].sort());
		expect(filters.members).toEqual({
			member: [{ member: { __rl: true, mode: 'list', value: '' } }],
		});
		// The row still empty: no member yet, neither a filter nor an error.
		const node = nodeOf(form.node, {});
		const qs = toQuery({ getNode: () => node }, 0, { members: filters.members }, [members]);
		expect(qs).toEqual({});
	});
});
