/**
 * Stand-ins for the n8n-nodes-base nodes the example workflows use (n8n-nodes-base itself is not
 * a dependency of this package), for the demo. Each takes the same parameters as the real node for the modes the
 * examples use, and reads them through getNodeParameter, so expressions resolve as in n8n.
 */
import type {
	IDataObject,
	IExecuteFunctions,
	INode,
	INodeExecutionData,
	INodeProperties,
	INodeType,
	INodeTypeDescription,
	ITriggerFunctions,
	ITriggerResponse,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

/** The workflow loader keeps only declared parameters: each stand-in declares the ones it reads. */
function describe(
	name: string,
	displayName: string,
	trigger = false,
	properties: INodeProperties[] = [],
): INodeTypeDescription {
	return {
		displayName,
		name,
		group: [trigger ? 'trigger' : 'transform'],
		version: [1, 1.1, 1.2, 2, 2.2, 3, 3.1, 3.2, 3.3, 3.4, 4.2],
		description: `Stand-in for ${name}`,
		defaults: { name: displayName },
		inputs: trigger ? [] : ['main'],
		outputs: ['main'],
		properties,
	} as INodeTypeDescription;
}

/** n8n-nodes-base.manualTrigger: one empty item. */
class ManualTrigger implements INodeType {
	description = describe('n8n-nodes-base.manualTrigger', 'Manual Trigger', true);

	async trigger(this: ITriggerFunctions): Promise<ITriggerResponse> {
		return { manualTriggerFunction: async () => this.emit([[{ json: {} }]]) };
	}
}

/** n8n-nodes-base.set in "JSON" (raw) mode: each item becomes the parsed `jsonOutput`. */
class EditFields implements INodeType {
	description = describe('n8n-nodes-base.set', 'Edit Fields', false, [
		{ displayName: 'Mode', name: 'mode', type: 'string', default: 'manual' },
		{ displayName: 'JSON', name: 'jsonOutput', type: 'json', default: '{}' },
		{ displayName: 'Options', name: 'options', type: 'json', default: {} },
	]);

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return [
			this.getInputData().map((_, i) => {
				const mode = this.getNodeParameter('mode', i, 'manual') as string;
				if (mode !== 'raw')
					throw new NodeOperationError(
						this.getNode(),
						`the demo's Edit Fields supports JSON mode only, not "${mode}"`,
					);
				const raw = this.getNodeParameter('jsonOutput', i) as string | IDataObject;
				const json = typeof raw === 'string' ? (JSON.parse(raw) as IDataObject) : raw;
				return { json, pairedItem: { item: i } };
			}),
		];
	}
}

/** n8n-nodes-base.splitOut: one item per element of the named list field. */
class SplitOut implements INodeType {
	description = describe('n8n-nodes-base.splitOut', 'Split Out', false, [
		{ displayName: 'Field To Split Out', name: 'fieldToSplitOut', type: 'string', default: '' },
		{ displayName: 'Options', name: 'options', type: 'json', default: {} },
	]);

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const out: INodeExecutionData[] = [];
		this.getInputData().forEach((item, i) => {
			const field = this.getNodeParameter('fieldToSplitOut', i) as string;
			const list = item.json[field];
			if (!Array.isArray(list))
				throw new NodeOperationError(this.getNode(), `field "${field}" is not a list`, {
					itemIndex: i,
				});
			for (const entry of list) {
				const json =
					entry !== null && typeof entry === 'object' && !Array.isArray(entry)
						? (entry as IDataObject)
						: { [field]: entry };
				out.push({ json, pairedItem: { item: i } });
			}
		});
		return [out];
	}
}

/** n8n-nodes-base.noOp: passes items on. */
class NoOp implements INodeType {
	description = describe('n8n-nodes-base.noOp', 'No Operation');

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return [this.getInputData().map((item, i) => ({ json: item.json, pairedItem: { item: i } }))];
	}
}

/** n8n-nodes-base.stickyNote: canvas text; no inputs or outputs, never run. */
class StickyNote implements INodeType {
	description = {
		...describe('n8n-nodes-base.stickyNote', 'Sticky Note', false, [
			{ displayName: 'Content', name: 'content', type: 'string', default: '' },
			{ displayName: 'Height', name: 'height', type: 'number', default: 160 },
			{ displayName: 'Width', name: 'width', type: 'number', default: 240 },
			{ displayName: 'Color', name: 'color', type: 'number', default: 1 },
		]),
		inputs: [],
		outputs: [],
	} as INodeTypeDescription;
}

/**
 * n8n-nodes-base.scheduleTrigger: only its place in the workflow. A run starts from it with the items
 * given (runWorkflow's triggerItems), as n8n starts an active workflow; the stand-in never fires.
 */
class ScheduleTrigger implements INodeType {
	description = describe('n8n-nodes-base.scheduleTrigger', 'Schedule Trigger', true, [
		{ displayName: 'Rule', name: 'rule', type: 'json', default: {} },
	]);

	async trigger(this: ITriggerFunctions): Promise<ITriggerResponse> {
		return {};
	}
}

interface Condition {
	leftValue: unknown;
	rightValue?: unknown;
	operator: { type: string; operation: string };
}

/** The conditions of n8n's Filter and If (v2) the examples use; another one fails loudly. */
function conditionHolds(node: INode, c: Condition): boolean {
	const { leftValue: left, rightValue: right } = c;
	switch (c.operator.operation) {
		case 'equals':
			return left === right;
		case 'notEquals':
			return left !== right;
		case 'true':
			return left === true;
		case 'false':
			return left === false;
		case 'notEmpty':
			return Array.isArray(left)
				? left.length > 0
				: left !== undefined && left !== null && left !== '';
		case 'empty':
			return Array.isArray(left)
				? left.length === 0
				: left === undefined || left === null || left === '';
		case 'gt':
			return Number(left) > Number(right);
		case 'lt':
			return Number(left) < Number(right);
		default:
			throw new NodeOperationError(
				node,
				`the demo's Filter/If supports equals, notEquals, true, false, empty, notEmpty, gt, lt; not "${c.operator.operation}"`,
			);
	}
}

function itemPasses(ctx: IExecuteFunctions, i: number): boolean {
	const group = ctx.getNodeParameter('conditions', i) as {
		conditions: Condition[];
		combinator?: string;
	};
	const results = group.conditions.map((c) => conditionHolds(ctx.getNode(), c));
	return group.combinator === 'or' ? results.some(Boolean) : results.every(Boolean);
}

const CONDITION_PROPERTIES: INodeProperties[] = [
	{ displayName: 'Conditions', name: 'conditions', type: 'json', default: {} },
	{ displayName: 'Options', name: 'options', type: 'json', default: {} },
];

/** n8n-nodes-base.filter (v2): the items whose conditions hold. */
class Filter implements INodeType {
	description = describe('n8n-nodes-base.filter', 'Filter', false, CONDITION_PROPERTIES);

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = this.getInputData();
		return [
			items.flatMap((item, i) =>
				itemPasses(this, i) ? [{ json: item.json, pairedItem: { item: i } }] : [],
			),
		];
	}
}

/** n8n-nodes-base.if (v2): items whose conditions hold on the first output, the others on the second. */
class If implements INodeType {
	description = {
		...describe('n8n-nodes-base.if', 'If', false, CONDITION_PROPERTIES),
		outputs: ['main', 'main'],
	} as INodeTypeDescription;

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const yes: INodeExecutionData[] = [];
		const no: INodeExecutionData[] = [];
		this.getInputData().forEach((item, i) =>
			(itemPasses(this, i) ? yes : no).push({ json: item.json, pairedItem: { item: i } }),
		);
		return [yes, no];
	}
}

/**
 * n8n-nodes-base.httpRequest, the templates' "Post to chat": a real POST of the JSON body (Send Body,
 * JSON) to the URL, answering with the response's JSON. Other methods and bodies fail loudly.
 */
class HttpRequest implements INodeType {
	description = describe('n8n-nodes-base.httpRequest', 'HTTP Request', false, [
		{ displayName: 'Method', name: 'method', type: 'string', default: 'GET' },
		{ displayName: 'URL', name: 'url', type: 'string', default: '' },
		{ displayName: 'Send Body', name: 'sendBody', type: 'boolean', default: false },
		{ displayName: 'Content Type', name: 'contentType', type: 'string', default: 'json' },
		{ displayName: 'Specify Body', name: 'specifyBody', type: 'string', default: 'json' },
		{ displayName: 'JSON', name: 'jsonBody', type: 'string', default: '' },
		{ displayName: 'Options', name: 'options', type: 'json', default: {} },
	]);

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const out: INodeExecutionData[] = [];
		const items = this.getInputData();
		for (let i = 0; i < items.length; i++) {
			const method = this.getNodeParameter('method', i) as string;
			if (method !== 'POST' || this.getNodeParameter('specifyBody', i) !== 'json')
				throw new NodeOperationError(this.getNode(), `the demo's HTTP Request posts JSON only`);
			const res = await fetch(this.getNodeParameter('url', i) as string, {
				method,
				headers: { 'content-type': 'application/json' },
				body: this.getNodeParameter('jsonBody', i) as string,
			});
			const text = await res.text();
			if (!res.ok)
				throw new NodeOperationError(this.getNode(), `POST answered ${res.status}: ${text}`);
			out.push({ json: (text ? JSON.parse(text) : {}) as IDataObject, pairedItem: { item: i } });
		}
		return [out];
	}
}

/** n8n-nodes-base.stopAndError with an error message: the run stops with that message. */
class StopAndError implements INodeType {
	description = describe('n8n-nodes-base.stopAndError', 'Stop and Error', false, [
		{ displayName: 'Error Type', name: 'errorType', type: 'string', default: 'errorMessage' },
		{ displayName: 'Error Message', name: 'errorMessage', type: 'string', default: '' },
	]);

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		if (this.getNodeParameter('errorType', 0) !== 'errorMessage')
			throw new NodeOperationError(
				this.getNode(),
				`the demo's Stop and Error takes a message only`,
			);
		throw new NodeOperationError(
			this.getNode(),
			this.getNodeParameter('errorMessage', 0) as string,
		);
	}
}

/**
 * Stand-in for n8n-nodes-base.dataTable, Row → Insert with its fields mapped automatically: it keeps
 * the rows in `dataTableRows` (by table name) in this process. n8n's node stores them in n8n's own
 * database, which the harness does not have; the e2e suite runs the real one.
 */
export const dataTableRows = new Map<string, IDataObject[]>();
class DataTableRecorder implements INodeType {
	description = describe(
		'n8n-nodes-base.dataTable',
		'Data table (stand-in: rows kept in memory)',
		false,
		[
			{ displayName: 'Resource', name: 'resource', type: 'string', default: 'row' },
			{ displayName: 'Operation', name: 'operation', type: 'string', default: 'insert' },
			{ displayName: 'Data Table', name: 'dataTableId', type: 'json', default: {} },
			{ displayName: 'Columns', name: 'columns', type: 'json', default: {} },
			{ displayName: 'Options', name: 'options', type: 'json', default: {} },
		],
	);

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = this.getInputData();
		return [
			items.map((item, i) => {
				const table = this.getNodeParameter('dataTableId', i) as { value: string };
				const op = `${String(this.getNodeParameter('resource', i))}/${String(this.getNodeParameter('operation', i))}`;
				if (op !== 'row/insert')
					throw new NodeOperationError(
						this.getNode(),
						`the demo's Data table inserts rows only, not ${op}`,
					);
				const rows = dataTableRows.get(table.value) ?? [];
				const row = { id: rows.length + 1, ...item.json };
				rows.push(row);
				dataTableRows.set(table.value, rows);
				return { json: row, pairedItem: { item: i } };
			}),
		];
	}
}

export const baseNodeStandIns: Record<string, INodeType> = {
	'n8n-nodes-base.httpRequest': new HttpRequest(),
	'n8n-nodes-base.dataTable': new DataTableRecorder(),
	'n8n-nodes-base.stickyNote': new StickyNote(),
	'n8n-nodes-base.scheduleTrigger': new ScheduleTrigger(),
	'n8n-nodes-base.filter': new Filter(),
	'n8n-nodes-base.if': new If(),
	'n8n-nodes-base.stopAndError': new StopAndError(),
	'n8n-nodes-base.manualTrigger': new ManualTrigger(),
	'n8n-nodes-base.set': new EditFields(),
	'n8n-nodes-base.splitOut': new SplitOut(),
	'n8n-nodes-base.noOp': new NoOp(),
};
