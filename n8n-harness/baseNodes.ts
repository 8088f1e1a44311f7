/**
 * Stand-ins for the few n8n-nodes-base nodes the example workflows use (n8n-nodes-base itself is not
 * a dependency of this package). Each takes the same parameters as the real node for the modes the
 * examples use, and reads them through getNodeParameter, so expressions resolve as in n8n.
 */
import type {
	IDataObject,
	IExecuteFunctions,
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
		version: [1, 2, 3, 3.1, 3.2, 3.3, 3.4],
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

export const baseNodeStandIns: Record<string, INodeType> = {
	'n8n-nodes-base.manualTrigger': new ManualTrigger(),
	'n8n-nodes-base.set': new EditFields(),
	'n8n-nodes-base.splitOut': new SplitOut(),
	'n8n-nodes-base.noOp': new NoOp(),
};
