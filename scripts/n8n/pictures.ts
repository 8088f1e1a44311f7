/**
 * What each picture of `npm run screenshots` is taken from, and its fingerprint (issue 57): a picture
 * of a node's form shows the fields its parameters make visible (with their labels, defaults, hints and
 * options; of a collection, the options set), the trigger panel and the credential slots; a canvas shows the workflow's nodes, notes and
 * connections, and our nodes' subtitles. `npm run screenshots` writes the fingerprints it took to
 * docs/images/manifest.json; test/forms/pictures.test.ts fails when a form or a workflow no longer
 * matches its picture's, until the pictures are taken again.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import type {
	INode,
	INodeParameters,
	INodeProperties,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { WorkspacePractice } from '../../nodes/WorkspacePractice/WorkspacePractice.node.js';
import { WorkspacePracticeJobTrigger } from '../../nodes/WorkspacePracticeJobTrigger/WorkspacePracticeJobTrigger.node.js';
import { WorkspacePracticeTrigger } from '../../nodes/WorkspacePracticeTrigger/WorkspacePracticeTrigger.node.js';
import { SEED, type Fixtures } from '../../simulator';
import { REPO_ROOT } from './paths';

export const MANIFEST = join(REPO_ROOT, 'docs', 'images', 'manifest.json');
export const MANIFEST_NOTE =
	'Written by npm run screenshots: what each picture was taken from (scripts/n8n/pictures.ts). test/forms/pictures.test.ts fails when a form or workflow changed since; take the pictures again.';
const EXAMPLES = join(REPO_ROOT, 'examples');
const PACKAGE = 'n8n-nodes-workspace-practice';
export const ACTION = `${PACKAGE}.workspacePractice`;

interface WorkflowNode {
	name: string;
	type: string;
	typeVersion: number;
	position: [number, number];
	parameters: INodeParameters;
}
interface WorkflowFile {
	name: string;
	nodes: WorkflowNode[];
	connections: unknown;
}

/** The one workflow the pictures need that is not an example: a Get Many with Filters filled in. */
export function getManyNode(fx: Fixtures): WorkflowNode {
	return {
		name: 'Recently published pages',
		type: ACTION,
		typeVersion: 1,
		position: [0, 0],
		parameters: {
			resource: 'knowledgeHubPage',
			operation: 'getAll',
			returnAll: false,
			limit: 20,
			filters: {
				status: 'published',
				folder_id: {
					__rl: true,
					mode: 'list',
					value: fx.folders.sales.id,
					cachedResultName: fx.folders.sales.name,
				},
				owner_id: {
					__rl: true,
					mode: 'list',
					value: fx.apiUser.id,
					cachedResultName: `${fx.apiUser.first_name} ${fx.apiUser.last_name} <${fx.apiUser.email}>`,
				},
				updated_after: '2026-01-01T00:00:00',
			},
			sort: { field: 'updated_at' },
		},
	};
}

/** A node's form: in an example (its file and node name), or the Get Many one. */
export interface FormPicture {
	file: string;
	example?: string;
	node: string;
}

/** docs/images/, in the order the script takes them. */
export const FORM_PICTURES: readonly FormPicture[] = [
	{
		file: 'scenario-job-create.png',
		example: 'scenarios-from-deals.json',
		node: 'Create scenario and wait',
	},
	{ file: 'knowledge-hub-pages-get-many.png', node: 'Recently published pages' },
	{ file: 'job-trigger.png', example: 'job-callbacks-to-team.json', node: 'Scenario job finished' },
	{
		file: 'knowledge-hub-trigger.png',
		example: 'knowledge-hub-watcher.json',
		node: 'New or published page',
	},
];

/** docs/images/: a whole example on the canvas. */
export const CANVAS_PICTURES = [
	{ file: 'workflow-scenarios-from-deals.png', example: 'scenarios-from-deals.json' },
] as const;

const NODE_TYPES: Record<string, INodeType> = Object.fromEntries(
	[new WorkspacePractice(), new WorkspacePracticeTrigger(), new WorkspacePracticeJobTrigger()].map(
		(type) => [`${PACKAGE}.${type.description.name}`, type],
	),
);

function readExample(file: string): WorkflowFile {
	return JSON.parse(readFileSync(join(EXAMPLES, file), 'utf8')) as WorkflowFile;
}

export function exampleFiles(): string[] {
	return readdirSync(EXAMPLES).filter((f) => f.endsWith('.json'));
}

/** A collection shows the options that are set; the others wait in its Add list, unseen. */
function shownOf(property: INodeProperties, parameters: INodeParameters): INodeProperties {
	if (property.type !== 'collection' && property.type !== 'fixedCollection') return property;
	const value = (parameters[property.name] ?? {}) as Record<string, unknown>;
	const options = (property.options ?? []) as Array<{ name: string }>;
	return { ...property, options: options.filter((o) => o.name in value) } as INodeProperties;
}

/** What a form shows for these parameters: the fields they make visible, the panel, the credentials. */
function formShown(description: INodeTypeDescription, node: WorkflowNode): unknown {
	const asNode = { ...node, id: '1' } as INode;
	const visible = (p: { displayOptions?: unknown }) =>
		NodeHelpers.displayParameter(node.parameters, p as never, asNode, description);
	return {
		displayName: description.displayName,
		parameters: node.parameters,
		properties: description.properties.filter(visible).map((p) => shownOf(p, node.parameters)),
		triggerPanel: description.triggerPanel ?? null,
		credentials: (description.credentials ?? []).filter(visible).map((c) => c.name),
	};
}

/** What the canvas shows: nodes (notes' words included), connections, and our nodes' subtitles. */
function canvasShown(workflow: WorkflowFile): unknown {
	return {
		nodes: workflow.nodes.map(({ name, type, typeVersion, position, parameters }) => ({
			name,
			type,
			typeVersion,
			position,
			parameters,
			subtitle: NODE_TYPES[type]?.description.subtitle ?? null,
		})),
		connections: workflow.connections,
	};
}

const fingerprint = (shown: unknown): string =>
	createHash('sha256').update(JSON.stringify(shown)).digest('hex').slice(0, 16);

export interface PictureEntry {
	/** What the picture shows, in words. */
	shows: string;
	/** sha256 (16 hex digits) of what the picture is taken from (see above). */
	from: string;
}

/** Every picture's entry, by its path from the repository root, as the code stands. */
export function pictureEntries(fx: Fixtures = SEED): Record<string, PictureEntry> {
	const entries: Record<string, PictureEntry> = {};
	for (const picture of FORM_PICTURES) {
		const node = picture.example
			? readExample(picture.example).nodes.find((n) => n.name === picture.node)
			: getManyNode(fx);
		const type = node && NODE_TYPES[node.type];
		if (!node || !type) throw new Error(`${picture.file}: no node "${picture.node}" of ours`);
		entries[`docs/images/${picture.file}`] = {
			shows: `the form of "${picture.node}"${picture.example ? ` (examples/${picture.example})` : ''}`,
			from: fingerprint(formShown(type.description, node)),
		};
	}
	for (const picture of CANVAS_PICTURES)
		entries[`docs/images/${picture.file}`] = {
			shows: `examples/${picture.example} on the canvas`,
			from: fingerprint(canvasShown(readExample(picture.example))),
		};
	for (const file of exampleFiles())
		entries[`examples/images/${file.replace(/\.json$/, '.png')}`] = {
			shows: `examples/${file} on the canvas`,
			from: fingerprint(canvasShown(readExample(file))),
		};
	return entries;
}
