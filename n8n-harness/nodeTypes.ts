import type {
	IBinaryKeyData,
	IDataObject,
	INodeExecutionData,
	INodeType,
	INodeTypes,
	IVersionedNodeType,
	ITriggerFunctions,
	ITriggerResponse,
} from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { WorkspacePractice } from '../nodes/WorkspacePractice/WorkspacePractice.node.js';
import { WorkspacePracticeTrigger } from '../nodes/WorkspacePracticeTrigger/WorkspacePracticeTrigger.node.js';
import { WorkspacePracticeJobTrigger } from '../nodes/WorkspacePracticeJobTrigger/WorkspacePracticeJobTrigger.node.js';
import { TestToolAgent, TOOL_AGENT_NODE_TYPE, toolVariant } from './toolAgent';
import { PROBE_NODE_TYPE, TransportProbe } from './transportProbe';

export const START_NODE_TYPE = 'test.start';

/**
 * A manual-style start node: emits the items the test puts in its `items` parameter, so the node
 * under test sees real input items (and pairedItem indexes), with files where an item has `$binary`.
 */
class TestStart implements INodeType {
	description = {
		displayName: 'Test Start',
		name: START_NODE_TYPE,
		group: ['trigger'],
		version: 1,
		description: 'Emits the test items',
		defaults: { name: 'Start' },
		inputs: [],
		outputs: ['main'],
		properties: [{ displayName: 'Items', name: 'items', type: 'json', default: '[{}]' }],
	} as INodeType['description'];

	async trigger(this: ITriggerFunctions): Promise<ITriggerResponse> {
		const items = JSON.parse(this.getNodeParameter('items', '[{}]') as string) as IDataObject[];
		// An item's `$binary` (property → {data: base64, mimeType, fileName}) becomes its files.
		const data: INodeExecutionData[] = items.map(({ $binary, ...json }) =>
			$binary ? { json, binary: $binary as IBinaryKeyData } : { json },
		);
		return { manualTriggerFunction: async () => this.emit([data]) };
	}
}

/** Our node types by name; tests register more (the triggers) as they come. */
export const registry: Record<string, INodeType | IVersionedNodeType> = {
	[START_NODE_TYPE]: new TestStart(),
	'n8n-nodes-workspace-practice.workspacePractice': new WorkspacePractice(),
	'n8n-nodes-workspace-practice.workspacePracticeTool': toolVariant(new WorkspacePractice()),
	[TOOL_AGENT_NODE_TYPE]: new TestToolAgent(),
	'n8n-nodes-workspace-practice.workspacePracticeJobTrigger': new WorkspacePracticeJobTrigger(),
	'n8n-nodes-workspace-practice.workspacePracticeTrigger': new WorkspacePracticeTrigger(),
	[PROBE_NODE_TYPE]: new TransportProbe(),
};

export const nodeTypes: INodeTypes = {
	getByName(type) {
		const nodeType = registry[type];
		if (!nodeType) throw new Error(`Unknown node type ${type}`);
		return nodeType;
	},
	getByNameAndVersion(type, version) {
		return NodeHelpers.getVersionedNodeType(this.getByName(type), version);
	},
	getKnownTypes() {
		return {};
	},
};
