/**
 * The editor lists a collection's and a fixed collection's options in source order: every one of
 * them, in every node (built from source, all versions, nested ones included), is in alphabetical
 * order by display name. A failure names the node, the parameter's path and where it shows.
 */
import type { INodeProperties, INodePropertyCollection, INodeTypeDescription } from 'n8n-workflow';

import { WorkspacePractice } from '../../nodes/WorkspacePractice/WorkspacePractice.node.js';
import { WorkspacePracticeJobTrigger } from '../../nodes/WorkspacePracticeJobTrigger/WorkspacePracticeJobTrigger.node.js';
import { WorkspacePracticeTrigger } from '../../nodes/WorkspacePracticeTrigger/WorkspacePracticeTrigger.node.js';

interface Unsorted {
	where: string;
	shown: string;
	order: string[];
}

const byName = (a: string, b: string): number =>
	a.localeCompare(b, 'en', { sensitivity: 'base', numeric: true });

function isSorted(names: string[]): boolean {
	return names.every((name, n) => n === 0 || byName(names[n - 1], name) <= 0);
}

function isCollection(option: unknown): option is INodePropertyCollection {
	return typeof option === 'object' && option !== null && 'values' in option;
}

/** Every collection and fixed collection under `properties`, with the path that leads to it. */
function unsorted(properties: INodeProperties[], path: string, shown: string): Unsorted[] {
	const found: Unsorted[] = [];
	for (const property of properties) {
		const where = `${path}${property.displayName} (${property.name})`;
		const here = property.displayOptions ? JSON.stringify(property.displayOptions) : shown;
		if (property.type !== 'collection' && property.type !== 'fixedCollection') continue;
		const options = (property.options ?? []) as Array<INodeProperties | INodePropertyCollection>;
		const names = options.map((option) => option.displayName);
		if (!isSorted(names)) found.push({ where, shown: here, order: names });
		for (const option of options) {
			const nested = isCollection(option) ? option.values : [option];
			found.push(...unsorted(nested, `${where} → `, here));
		}
	}
	return found;
}

const nodes: INodeTypeDescription[] = [
	new WorkspacePractice().description,
	new WorkspacePracticeTrigger().description,
	new WorkspacePracticeJobTrigger().description,
];

describe('options of every collection and fixed collection are in alphabetical order', () => {
	test.each(nodes.map((node) => [node.displayName, node] as const))('%s', (_name, node) => {
		const found = unsorted(node.properties, '', 'always').map(
			({ where, shown, order }) =>
				`${node.displayName}: ${where}, shown ${shown}: ${order.join(' | ')}`,
		);
		expect(found).toEqual([]);
	});

	test('the check sees an unsorted collection, nested in a fixed collection', () => {
		const options: INodeProperties[] = [
			{ displayName: 'Zeta', name: 'zeta', type: 'string', default: '' },
			{ displayName: 'Alpha', name: 'alpha', type: 'string', default: '' },
		];
		const fixed: INodeProperties = {
			displayName: 'Rows',
			name: 'rows',
			type: 'fixedCollection',
			default: {},
			options: [
				{
					displayName: 'Row',
					name: 'row',
					values: [
						{ displayName: 'Inner', name: 'inner', type: 'collection', default: {}, options },
					],
				},
			],
		};
		expect(unsorted([fixed], '', 'always')).toEqual([
			{ where: 'Rows (rows) → Inner (inner)', shown: 'always', order: ['Zeta', 'Alpha'] },
		]);
	});
});
