/**
 * Every workflow in examples/ is a template in n8n's gallery format (issues 42 and 57), held to the
 * sticky-note rules of n8n's Creator hub ("Sticky note guidelines for templates", as published
 * creators quote them; examples/README.md says where they come from): one yellow overview note at
 * the top left, 100–300 words, with "### How it works" then "### Setup" (and at most an optional
 * "### Customization"), the self-hosted line and the community-package install step; white section
 * notes under 50 words, a "## " heading each, every one grouping two or more nodes; every node inside
 * a section. Also: one Set node named Settings first after every trigger holding what a user edits
 * (and read by the other nodes), no workspace IDs, node names not left at n8n's defaults, a name
 * shaped "verb + thing + where", and a chat URL left empty stops the run naming the setting (issue
 * 57: run as imported, a placeholder host failed with n8n's "incorrect host (domain)" alone).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

interface NodeJson {
	name: string;
	type: string;
	position: [number, number];
	parameters: Record<string, unknown>;
}
type Targets = Array<Array<{ node: string }>>;
interface WorkflowJson {
	name: string;
	nodes: NodeJson[];
	connections: Record<string, Record<string, Targets>>;
}

const DIR = join(__dirname, '..', '..', 'examples');
const FILES = readdirSync(DIR).filter((f) => f.endsWith('.json'));
const read = (file: string): WorkflowJson =>
	JSON.parse(readFileSync(join(DIR, file), 'utf8')) as WorkflowJson;

const STICKY = 'n8n-nodes-base.stickyNote';
/** n8n's sticky colours: 1 (the default, also when absent) is yellow, 7 is white (neutral-100). */
const YELLOW = 1;
const WHITE = 7;
/** A node's box on the canvas; the AI Agent is wider, so its sticky must leave room. */
const NODE_SIZE = 100;
/** The overview note's sections, in this order, then at most the optional ones. */
const REQUIRED_HEADINGS = ['### How it works', '### Setup'];
const OPTIONAL_HEADINGS = ['### Customization'];
const OVERVIEW_WORDS = { min: 100, max: 300 };
/** Section notes: "under 50 words". */
const SECTION_WORDS_MAX = 49;
const PACKAGE = 'n8n-nodes-workspace-practice';
const INSTALL_STEP = 'Settings → Community Nodes → Install';

/**
 * Words as the strictest count sees them: every run of non-blank characters, Markdown marks
 * included, so a note within the limits here is within them however n8n counts.
 */
const wordCount = (text: string): number => text.split(/\s+/).filter(Boolean).length;

/** Names n8n gives a node when it is added (a second one gets a digit): a template renames them. */
const DEFAULT_NAMES = [
	'Workspace Practice',
	'Workspace Practice Tool',
	'Workspace Practice Trigger',
	'Workspace Practice Job Trigger',
	'Edit Fields',
	'Set',
	'If',
	'Filter',
	'Aggregate',
	'Summarize',
	'Split Out',
	'HTTP Request',
	'Code',
	'Webhook',
	'Schedule Trigger',
	'Manual Trigger',
	'When clicking ‘Execute workflow’',
	'Read/Write Files from Disk',
	'Data table',
	'AI Agent',
	'OpenAI Chat Model',
	'When chat message received',
	'MCP Server Trigger',
	'Sticky Note',
	'Stop and Error',
];
/** The verbs the templates' names start with ("verb + thing + where"). */
const VERBS = [
	'Alert',
	'Assign',
	'Chat',
	'Create',
	'Keep',
	'Post',
	'Report',
	'Serve',
	'Sync',
	'Turn',
	'Watch',
];

/**
 * IDs as the service (and its simulator) makes them: 12 lower-case letters and digits with at least
 * one of each, or UUIDs. Placeholders such as REPLACE-ME are not IDs.
 */
const SHORT_ID = /\b(?=[a-z0-9]*\d)(?=[a-z0-9]*[a-z])[a-z0-9]{12}\b/;
const UUID = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/i;

/** Every string in a node's parameters with its path; the Filter/If conditions' own `id`s are n8n's. */
function strings(value: unknown, path: string): Array<[string, string]> {
	if (typeof value === 'string') return [[path, value]];
	if (Array.isArray(value)) return value.flatMap((v, i) => strings(v, `${path}[${i}]`));
	if (value && typeof value === 'object')
		return Object.entries(value).flatMap(([k, v]) =>
			k === 'id' && path.includes('conditions') ? [] : strings(v, `${path}.${k}`),
		);
	return [];
}

const isSticky = (n: NodeJson): boolean => n.type === STICKY;
const colorOf = (n: NodeJson): number => Number(n.parameters.color ?? YELLOW);

/** Whether a node's box lies within a sticky note's. */
function inside(n: NodeJson, s: NodeJson): boolean {
	const [x, y] = s.position;
	const w = Number(s.parameters.width);
	const h = Number(s.parameters.height);
	const [nx, ny] = n.position;
	return nx >= x && ny >= y && nx + NODE_SIZE <= x + w && ny + NODE_SIZE <= y + h;
}

function mainTargets(workflow: WorkflowJson, from: string): string[] {
	return (workflow.connections[from]?.main ?? []).flat().map((t) => t.node);
}

/** Nodes nothing feeds on a main input and that feed none of n8n's AI inputs: the triggers. */
function triggers(workflow: WorkflowJson): NodeJson[] {
	const fed = new Set<string>();
	const subNodes = new Set<string>();
	for (const [from, outputs] of Object.entries(workflow.connections))
		for (const [kind, targets] of Object.entries(outputs)) {
			if (kind !== 'main') subNodes.add(from);
			else for (const t of targets.flat()) fed.add(t.node);
		}
	return workflow.nodes.filter((n) => !isSticky(n) && !fed.has(n.name) && !subNodes.has(n.name));
}

/** The Settings node's fields (its JSON), or undefined without one. */
function settingsFields(workflow: WorkflowJson): string[] | undefined {
	const node = workflow.nodes.find((n) => n.name === 'Settings');
	if (!node) return undefined;
	const json = JSON.parse(String(node.parameters.jsonOutput)) as Record<string, unknown>;
	return Object.keys(json);
}

describe.each(FILES)('template examples/%s', (file) => {
	const workflow = read(file);
	const stickies = workflow.nodes.filter(isSticky);
	const nodes = workflow.nodes.filter((n) => !isSticky(n));

	test('one yellow overview note at the top left: 100–300 words, How it works and Setup, the self-hosted line and the install step', () => {
		const yellow = stickies.filter((s) => colorOf(s) === YELLOW);
		expect(yellow.length).toBe(1);
		const [overview] = yellow;
		const text = String(overview.parameters.content);
		const words = wordCount(text);
		expect([words, words >= OVERVIEW_WORDS.min && words <= OVERVIEW_WORDS.max]).toEqual([
			words,
			true,
		]);
		expect(text.split('\n')[0]).toBe(`## ${workflow.name}`);
		const headings = text.split('\n').filter((line) => line.startsWith('### '));
		expect(headings.slice(0, 2)).toEqual(REQUIRED_HEADINGS);
		for (const extra of headings.slice(2)) expect(OPTIONAL_HEADINGS).toContain(extra);
		expect(new Set(headings).size).toBe(headings.length);
		const beforeHow = text.slice(0, text.indexOf('### How it works'));
		expect(beforeHow).toContain('**Self-hosted n8n only.**');
		expect(beforeHow).toContain(PACKAGE);
		expect(beforeHow).toMatch(/canvas preview/);
		const setup = text.slice(text.indexOf('### Setup')).split('\n### ')[0];
		expect(setup).toContain(INSTALL_STEP);
		expect(setup).toContain(PACKAGE);
		for (const n of workflow.nodes.filter((m) => m !== overview))
			expect([
				n.name,
				n.position[0] > overview.position[0] && n.position[1] >= overview.position[1],
			]).toEqual([n.name, true]);
	});

	test('the other notes are white sections under 50 words, each a "## " heading over two or more nodes', () => {
		const sections = stickies.filter((s) => colorOf(s) !== YELLOW);
		expect(sections.length).toBeGreaterThan(0);
		for (const s of sections) {
			const text = String(s.parameters.content);
			expect([s.name, colorOf(s)]).toEqual([s.name, WHITE]);
			expect([s.name, wordCount(text)]).toEqual([
				s.name,
				Math.min(wordCount(text), SECTION_WORDS_MAX),
			]);
			expect([s.name, text.startsWith('## ')]).toEqual([s.name, true]);
			expect([s.name, nodes.filter((n) => inside(n, s)).length >= 2]).toEqual([s.name, true]);
		}
	});

	test('every node sits inside a section note', () => {
		const sections = stickies.filter((s) => colorOf(s) === WHITE);
		for (const n of nodes)
			expect([n.name, sections.some((s) => inside(n, s))]).toEqual([n.name, true]);
	});

	test('a chat URL left empty stops the run with an error naming Settings → chat_webhook_url', () => {
		if (!(settingsFields(workflow) ?? []).includes('chat_webhook_url')) return;
		const settings = nodes.find((n) => n.name === 'Settings') as NodeJson;
		const values = JSON.parse(String(settings.parameters.jsonOutput)) as Record<string, unknown>;
		expect(values.chat_webhook_url).toBe('');
		const posts = nodes.filter((n) => String(n.parameters.url ?? '').includes('chat_webhook_url'));
		expect(posts.length).toBeGreaterThan(0);
		const check = nodes.find((n) => n.name === 'Chat URL set?') as NodeJson;
		expect(check.type).toBe('n8n-nodes-base.if');
		const [condition] = (
			check.parameters.conditions as {
				conditions: Array<{ leftValue: string; operator: { operation: string } }>;
			}
		).conditions;
		expect(condition.leftValue).toMatch(
			/\$\('Settings'\)\.(item|first\(\))\.json\.chat_webhook_url/,
		);
		expect(condition.operator.operation).toBe('notEmpty');
		const [yes, no] = workflow.connections['Chat URL set?'].main;
		for (const post of posts) {
			const feeders = Object.keys(workflow.connections).filter((from) =>
				mainTargets(workflow, from).includes(post.name),
			);
			expect([post.name, feeders]).toEqual([post.name, ['Chat URL set?']]);
			expect(yes.map((t) => t.node)).toContain(post.name);
		}
		const stop = nodes.find((n) => n.name === no[0]?.node) as NodeJson;
		expect(stop.type).toBe('n8n-nodes-base.stopAndError');
		expect(String(stop.parameters.errorMessage)).toMatch(/^Settings → chat_webhook_url is empty/);
	});

	test('a Settings node comes first after every trigger, and what it holds is used', () => {
		const starts = triggers(workflow);
		expect(starts.length).toBeGreaterThan(0);
		const withOutputs = starts.filter((t) => mainTargets(workflow, t.name).length > 0);
		// An MCP server has no run of its own: its trigger serves tools and has no main output.
		for (const t of starts.filter((s) => !withOutputs.includes(s)))
			expect(t.type).toBe('@n8n/n8n-nodes-langchain.mcpTrigger');
		if (withOutputs.length === 0) return;
		const settings = nodes.find((n) => n.name === 'Settings');
		expect(settings?.type).toBe('n8n-nodes-base.set');
		for (const t of withOutputs)
			expect([t.name, mainTargets(workflow, t.name)]).toEqual([t.name, ['Settings']]);
		const fields = settingsFields(workflow) ?? [];
		expect(fields.length).toBeGreaterThan(0);
		const text = JSON.stringify(nodes.filter((n) => n.name !== 'Settings'));
		const read = [...text.matchAll(/\$\('Settings'\)\.(?:item|first\(\))\.json\.(\w+)/g)].map(
			(m) => m[1],
		);
		for (const field of fields) expect([field, read.includes(field)]).toEqual([field, true]);
		for (const field of read) expect([field, fields.includes(field)]).toEqual([field, true]);
	});

	test('no workspace IDs in any parameter', () => {
		for (const n of nodes)
			for (const [path, value] of strings(n.parameters, n.name))
				expect([path, SHORT_ID.test(value) || UUID.test(value)]).toEqual([path, false]);
	});

	test('node names say what the node does, not n8n’s defaults; the name is "verb + thing + where"', () => {
		const defaults = new RegExp(
			`^(${DEFAULT_NAMES.map((d) => d.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('|')})\\d*$`,
		);
		for (const n of workflow.nodes)
			expect([n.name, defaults.test(n.name)]).toEqual([n.name, false]);
		const [verb] = workflow.name.split(' ');
		expect([workflow.name, VERBS.includes(verb)]).toEqual([workflow.name, true]);
		// The where: the service the template works with, named as the gallery lists its integrations.
		expect(workflow.name).toContain('Workspace Practice');
	});
});

describe('the template check catches what it is for', () => {
	test('a simulator group ID and a UUID count as IDs; placeholders do not', () => {
		expect(SHORT_ID.test('0lhsyvaq4bvb')).toBe(true);
		expect(UUID.test('3b7e0c52-6a1f-4d9e-8b2c-5f4a1e9d7c30')).toBe(true);
		expect(SHORT_ID.test('https://chat.example.com/incoming-webhook/REPLACE-ME')).toBe(false);
		expect(SHORT_ID.test('n8n-nodes-workspace-practice')).toBe(false);
	});
});

test('words are counted as the strictest count sees them: Markdown marks count', () => {
	expect(wordCount('## A title\n1. **Bold** step → `code`')).toBe(8);
});
