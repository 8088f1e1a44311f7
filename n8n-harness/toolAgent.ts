import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { deepCopy, NodeConnectionTypes } from 'n8n-workflow';

export const TOOL_AGENT_NODE_TYPE = 'test.toolAgent';

/**
 * What the n8n server makes of a `usableAsTool` node for agents and the MCP Server Trigger (its
 * `<name>Tool` variant): the same class under the name ending in "Tool", with no main input and one
 * `ai_tool` output, so n8n-core hands it to a consumer as a tool. Built here because the server's own
 * converter is not part of the packages the tests install.
 */
export function toolVariant(nodeType: INodeType): INodeType {
	const description: INodeTypeDescription = deepCopy(nodeType.description);
	description.name = `${description.name}Tool`;
	description.displayName = `${description.displayName} Tool`;
	description.inputs = [];
	description.outputs = [NodeConnectionTypes.AiTool];
	delete description.usableAsTool;
	return Object.create(nodeType, { description: { value: description } }) as INodeType;
}

/**
 * A scripted stand-in for an AI agent: it takes the tools connected to its `ai_tool` input through
 * n8n-core (getInputConnectionData → the node as a tool, each call run by n8n-core's tool invocation)
 * and calls the first one once per entry of its `calls` parameter, in order, as a model would in one
 * turn. Each output item holds one call's answer (parsed JSON) or its error message: an agent gets a
 * failed call as text and goes on.
 */
export class TestToolAgent implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Test Tool Agent',
		name: TOOL_AGENT_NODE_TYPE,
		group: ['transform'],
		version: 1,
		description: 'Calls the connected tool with scripted arguments',
		defaults: { name: 'Agent' },
		inputs: [
			NodeConnectionTypes.Main,
			{ type: NodeConnectionTypes.AiTool, displayName: 'Tools', required: true },
		],
		outputs: [NodeConnectionTypes.Main],
		properties: [{ displayName: 'Calls', name: 'calls', type: 'json', default: '[{}]' }],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const calls = JSON.parse(this.getNodeParameter('calls', 0, '[{}]') as string) as IDataObject[];
		const tools = (await this.getInputConnectionData(NodeConnectionTypes.AiTool, 0)) as Array<{
			name: string;
			invoke(args: IDataObject): Promise<unknown>;
		}>;
		const out: INodeExecutionData[] = [];
		for (const args of calls) {
			try {
				const answer = await tools[0].invoke(args);
				out.push({
					json: { tool: tools[0].name, answer: JSON.parse(String(answer)) as IDataObject },
				});
			} catch (error) {
				out.push({
					json: {
						tool: tools[0].name,
						error: error instanceof Error ? error.message : String(error),
					},
				});
			}
		}
		return [out];
	}
}
