/**
 * docs/errors.md's catalogue, walked: each message the service sends becomes, through the transport's
 * error, the text the catalogue shows, and every field an error names (the service's or the node's own
 * checks) is a label the nodes' forms show. So a newcomer reading an error finds the field to fix.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { INode, INodeProperties, INodePropertyCollection } from 'n8n-workflow';

import { serviceError } from '../../nodes/shared/transport/errors';
import { FORM_LABELS } from '../../nodes/shared/transport/formWords';
import { WorkspacePractice } from '../../nodes/WorkspacePractice/WorkspacePractice.node.js';
import { WorkspacePracticeTrigger } from '../../nodes/WorkspacePracticeTrigger/WorkspacePracticeTrigger.node.js';
import { WorkspacePracticeJobTrigger } from '../../nodes/WorkspacePracticeJobTrigger/WorkspacePracticeJobTrigger.node.js';

const ROOT = join(__dirname, '..', '..');
const node: INode = {
	id: 'n1',
	name: 'Workspace Practice',
	type: 'workspacePractice',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};

/** Every label a form shows: fields, and the fields inside collections and fixed collections. */
function labelsOf(properties: Array<INodeProperties | INodePropertyCollection>): string[] {
	return properties.flatMap((property) => {
		const nested =
			'values' in property
				? labelsOf(property.values)
				: 'options' in property &&
					  (property.type === 'collection' || property.type === 'fixedCollection')
					? labelsOf(property.options as Array<INodeProperties | INodePropertyCollection>)
					: [];
		return [property.displayName, ...nested];
	});
}

const FORM = new Set(
	[
		new WorkspacePractice(),
		new WorkspacePracticeTrigger(),
		new WorkspacePracticeJobTrigger(),
	].flatMap((type) => labelsOf(type.description.properties)),
);

/** The rows of the Markdown table that follows `heading` in docs/errors.md, as [left, right] cells. */
function tableAfter(heading: string): Array<[string, string]> {
	const text = readFileSync(join(ROOT, 'docs', 'errors.md'), 'utf8');
	const start = text.indexOf(heading);
	expect(start).toBeGreaterThan(-1);
	const rows: Array<[string, string]> = [];
	for (const line of text.slice(start).split('\n').slice(1)) {
		if (rows.length && !line.startsWith('|')) break;
		if (!line.startsWith('|') || /^\|\s*-/.test(line)) continue;
		const cells = line
			.split('|')
			.slice(1, -1)
			.map((cell) => cell.trim().replace(/^`|`$/g, ''));
		rows.push([cells[0], cells[1]]);
	}
	return rows.slice(1); // the header row
}

const serviceRows = tableAfter("## The service's messages in the form's words");
const nodeRows = tableAfter("The node's own checks, before any request");

describe("docs/errors.md: the service's messages in the form's words", () => {
	it('the catalogue is there', () => {
		expect(serviceRows.length).toBeGreaterThanOrEqual(10);
		expect(nodeRows.length).toBeGreaterThanOrEqual(3);
	});

	it.each(serviceRows)('"%s" is shown as the catalogue says', (said, shown) => {
		const error = serviceError(node, 400, { type: 'invalid_request_error', message: said }, 'x');
		expect(error.message).toBe(`${shown} [400 invalid_request_error]`);
		// Its next step names the field(s) by label, not "the field the message names".
		const labels = [...shown.matchAll(/([A-Z][\w ]*?) \([a-z_]+\)/g)].map((m) => m[1]);
		expect(labels.length).toBeGreaterThan(0);
		for (const label of labels) {
			expect(FORM.has(label)).toBe(true);
			expect(error.description).toContain(`"${label}"`);
		}
	});

	it.each(nodeRows)('%s: "%s" names a field the form shows', (_check, shown) => {
		const field = shown.split(':')[0];
		for (const part of field.split(' → ')) expect(FORM.has(part)).toBe(true);
	});

	it('every API field the transport renames is told by a label the form shows', () => {
		expect(Object.values(FORM_LABELS).filter((label) => !FORM.has(label))).toEqual([]);
	});

	it('no doubled full stop when the service ends its message with one', () => {
		const error = serviceError(
			node,
			401,
			{
				type: 'authentication_error',
				code: 'invalid_api_key',
				message: 'API key invalid or inactive.',
			},
			'x',
		);
		expect(error.description).toMatch(/message: API key invalid or inactive\. Check the API key/);
		expect(`${error.message} ${error.description}`).not.toMatch(/\.\./);
	});
});
