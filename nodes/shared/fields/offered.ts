import type {
	INode,
	INodeParameters,
	INodeProperties,
	INodePropertyCollection,
	INodePropertyOptions,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { InputValidator, listEntries, quoted } from '../validate';

/**
 * An expression or an AI tool call can put anything in an options field: checked before any request,
 * here only. The operations and the trigger's families read the value as it passed (a multi-select's
 * with `listEntries`, as here) and check it no more.
 */

/** A field's offered values, or undefined when its list comes from the API (nothing fixed to check). */
function offeredValues(field: INodeProperties): INodePropertyOptions[] | undefined {
	if (field.type !== 'options' && field.type !== 'multiOptions') return undefined;
	if (field.typeOptions?.loadOptionsMethod || field.typeOptions?.loadOptions) return undefined;
	return (field.options ?? []).filter((o): o is INodePropertyOptions => 'value' in o);
}

/** "Off (off), Until Callback (callback)": what a person picks and what an expression gives. */
function describeOffered(options: INodePropertyOptions[]): string {
	return options.map((o) => `${o.name} (${quoted(o.value)})`).join(', ');
}

/** Says why a value the form does not offer does not apply (throws), or returns to refuse it plainly. */
export type Explain = (path: string, value: unknown) => void;

interface Where {
	check: InputValidator;
	explain: Explain;
	node: INode;
	description: INodeTypeDescription;
}

interface At {
	label: string;
	path: string;
}

/** A value passes when one of the shown definitions of its name offers it. */
function checkValue(
	{ check, explain }: Where,
	{ label, path }: At,
	definitions: INodeProperties[],
	value: unknown,
): void {
	const lists = definitions.map(offeredValues);
	if (lists.some((list) => list === undefined)) return;
	const offered = (lists as INodePropertyOptions[][]).flat();
	// The form's own default is a value it gives (an empty pick before a choice, say).
	const isOffered = (entry: unknown): boolean =>
		offered.some((o) => o.value === entry) || definitions.some((d) => d.default === entry);
	if (value === undefined || value === null) return;
	// Not a list at all: the operation's own reading says so, in its words.
	const entries = definitions[0].type === 'multiOptions' ? (listEntries(value) ?? []) : [value];
	const unknown = entries.find((entry) => !isOffered(entry));
	if (unknown === undefined) return;
	explain(path, unknown);
	check.fail(
		label,
		`${quoted(unknown)} is not one of its values; it takes ${describeOffered(offered)}`,
	);
}

const CONTAINERS = ['collection', 'fixedCollection'];

/** The fields shown beside `values`, by name (a name may be defined once per operation). */
function shownByName(
	{ node, description }: Where,
	fields: INodeProperties[],
	values: INodeParameters,
): Map<string, INodeProperties[]> {
	const groups = new Map<string, INodeProperties[]>();
	for (const field of fields)
		if (NodeHelpers.displayParameter(values, field, node, description))
			groups.set(field.name, [...(groups.get(field.name) ?? []), field]);
	return groups;
}

function isObject(value: unknown): value is INodeParameters {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A collection's or a fixedCollection group's values: the options fields among them checked. */
function checkEntries(
	where: Where,
	parent: At,
	fields: INodeProperties[],
	values: INodeParameters,
): void {
	for (const [name, definitions] of shownByName(where, fields, values)) {
		if (!(name in values)) continue;
		const label = `${parent.label} → ${definitions[0].displayName}`;
		checkField(where, { label, path: `${parent.path}.${name}` }, definitions, values[name]);
	}
}

function checkField(where: Where, at: At, definitions: INodeProperties[], value: unknown): void {
	const field = definitions[0];
	if (field.type === 'collection' && isObject(value)) {
		const children = definitions.flatMap((d) => (d.options ?? []) as INodeProperties[]);
		checkEntries(where, at, children, value);
	} else if (field.type === 'fixedCollection' && isObject(value)) {
		const groups = definitions.flatMap((d) => (d.options ?? []) as INodePropertyCollection[]);
		for (const group of groups) {
			const entries = value[group.name];
			const list = Array.isArray(entries) ? entries : [entries];
			const inGroup = {
				label: `${at.label} → ${group.displayName}`,
				path: `${at.path}.${group.name}`,
			};
			for (const entry of list)
				if (isObject(entry)) checkEntries(where, inGroup, group.values, entry);
		}
	} else {
		checkValue(where, at, definitions, value);
	}
}

/**
 * Refuses, naming the field and the values it takes, any options value (at any depth) the shown form
 * does not offer. `read` gives a top-level value as the run resolves it; `explain` may say better why.
 */
export function refuseUnofferedValues(
	node: INode,
	properties: INodeProperties[],
	read: (name: string) => unknown,
	itemIndex = 0,
	explain: Explain = () => undefined,
): void {
	// `name` answers displayOptions' @tool: the tool variant's type name ends with Tool.
	const description = { properties, name: node.type } as INodeTypeDescription;
	const where: Where = { check: new InputValidator(node, itemIndex), explain, node, description };
	for (const [name, definitions] of shownByName(where, properties, node.parameters)) {
		if (!definitions.some((d) => offeredValues(d) || CONTAINERS.includes(d.type))) continue;
		let value: unknown;
		try {
			value = read(name);
		} catch {
			// An expression that cannot be resolved: the operation's own reading reports it.
			continue;
		}
		checkField(where, { label: definitions[0].displayName, path: name }, definitions, value);
	}
}
