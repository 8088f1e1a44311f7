import type {
	ILoadOptionsFunctions,
	INode,
	INodeListSearchResult,
	INodeParameters,
	IWorkflowBase,
} from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';
import { LoadOptionsContext } from 'n8n-core';

import { makeAdditionalData } from './additionalData';
import { TestCredentialsHelper } from './credentialsHelper';
import { nodeTypes } from './nodeTypes';
import { ACTION_NODE_TYPE, NODE_NAME } from './runNode';
import type { TestCredentials } from './runNode';

/**
 * The context the n8n server gives a node's pick-list and "From List" methods: n8n-core's
 * LoadOptionsContext over a one-node workflow, the credential applied by its real authenticate block.
 */
export function loadOptionsContext(
	credentials: TestCredentials,
	options: { nodeType?: string; parameters?: INodeParameters; path?: string } = {},
): ILoadOptionsFunctions {
	const node: INode = {
		id: 'node-under-test',
		name: NODE_NAME,
		type: options.nodeType ?? ACTION_NODE_TYPE,
		typeVersion: 1,
		position: [0, 0],
		parameters: options.parameters ?? {},
		credentials: {
			workspacePracticeApi: { id: 'test-credential', name: 'Workspace Practice (test)' },
		},
	};
	const workflowData: IWorkflowBase = {
		id: 'load-options',
		name: 'Load options',
		active: false,
		isArchived: false,
		createdAt: new Date(),
		updatedAt: new Date(),
		nodes: [node],
		connections: {},
		settings: {},
		activeVersionId: null,
	};
	const workflow = new Workflow({
		id: workflowData.id,
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes,
	});
	const helper = new TestCredentialsHelper({ workspacePracticeApi: { ...credentials } });
	return new LoadOptionsContext(
		workflow,
		node,
		makeAdditionalData(helper, workflowData, 'load-options'),
		options.path ?? 'parameters',
	);
}

/** A `listSearch` method as n8n calls it. */
export type ListSearchMethod = (
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
) => Promise<INodeListSearchResult>;
