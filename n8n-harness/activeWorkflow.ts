import type { IDataObject, INode, IWorkflowBase } from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import { nodeTypes } from './nodeTypes';

/** An active one-node workflow around a trigger, as the n8n server holds it while the trigger listens. */
export function activeWorkflow(
	id: string,
	node: INode,
	staticData: IDataObject = {},
	/** The workflow's name (default "Trigger test") and settings (a time zone, say). */
	named: { name?: string; timezone?: string } = {},
): { workflowData: IWorkflowBase; workflow: Workflow } {
	const settings = named.timezone ? { timezone: named.timezone } : {};
	const workflowData: IWorkflowBase = {
		id,
		name: named.name ?? 'Trigger test',
		active: true,
		isArchived: false,
		createdAt: new Date(),
		updatedAt: new Date(),
		nodes: [node],
		connections: {},
		settings,
		activeVersionId: null,
	};
	const workflow = new Workflow({
		id,
		name: workflowData.name,
		nodes: [node],
		connections: {},
		active: true,
		nodeTypes,
		settings,
		staticData,
	});
	return { workflowData, workflow };
}
