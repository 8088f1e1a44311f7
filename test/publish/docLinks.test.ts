/**
 * Every documentation link in what ships (nodes/, credentials/, the codex files) that points into this
 * repository resolves: the file exists and the #anchor is a heading of it, as GitHub makes anchors.
 * n8n shows these links as the node's and the credential's help; a renamed heading would break them.
 * The same holds for the relative links between the user and contributor docs.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..', '..');
const REPO = 'https://github.com/workspace-practice/n8n-nodes-workspace-practice';

/** Files under a folder, recursively. */
function files(dir: string): string[] {
	return readdirSync(dir).flatMap((name) => {
		const path = join(dir, name);
		return statSync(path).isDirectory() ? files(path) : [path];
	});
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
function githubAnchor(heading: string): string {
	return heading
		.replace(/`/g, '')
		.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
		.trim()
		.toLowerCase()
		.replace(/[^\p{L}\p{N}\s_-]/gu, '')
		.replace(/\s/g, '-');
}

/** The anchors of a Markdown file's headings (outside code blocks), numbered as GitHub numbers repeats. */
function anchorsOf(markdown: string): Set<string> {
	const anchors = new Set<string>();
	const seen = new Map<string, number>();
	let inCode = false;
	for (const line of markdown.split('\n')) {
		if (line.startsWith('```')) inCode = !inCode;
		const heading = !inCode && /^#{1,6}\s+(.*?)\s*#*$/.exec(line);
		if (!heading) continue;
		const base = githubAnchor(heading[1]);
		const count = seen.get(base) ?? 0;
		seen.set(base, count + 1);
		anchors.add(count ? `${base}-${count}` : base);
	}
	return anchors;
}

/** The repository file and anchor a link names, or why it names none. */
function target(url: string): { file: string; anchor?: string } | { error: string } {
	const [beforeHash, anchor] = url.slice(REPO.length).split('#') as [string, string | undefined];
	const path = beforeHash.replace(/\?.*$/, '');
	if (path === '' || path === '/') return { file: 'README.md', anchor };
	const blob = /^\/(?:blob|tree)\/[^/]+\/(.+)$/.exec(path);
	if (!blob) return { error: `not a file of the repository: ${url}` };
	return { file: blob[1], anchor };
}

interface Link {
	from: string;
	url: string;
}

const links: Link[] = [...files(join(ROOT, 'nodes')), ...files(join(ROOT, 'credentials'))]
	.filter((path) => /\.(ts|json)$/.test(path))
	.flatMap((path) =>
		[...readFileSync(path, 'utf8').matchAll(/https:\/\/github\.com\/[^\s'"`)<>]+/g)].map(
			(match) => ({ from: relative(ROOT, path), url: match[0] }),
		),
	);

describe('documentation links in nodes, credentials and codex files', () => {
	it('are found: each codex file has its two, each credential its one', () => {
		const codex = links.filter((link) => link.from.endsWith('.node.json'));
		const credentials = links.filter((link) => link.from.startsWith('credentials/'));
		expect(codex).toHaveLength(6);
		expect(credentials).toHaveLength(2);
	});

	it('point into this repository', () => {
		expect(links.filter((link) => !link.url.startsWith(REPO))).toEqual([]);
	});

	it('name a file that exists and a heading of it', () => {
		const broken = links.flatMap(({ from, url }) => {
			const found = target(url);
			if ('error' in found) return [`${from}: ${found.error}`];
			const path = join(ROOT, found.file);
			if (!existsSync(path)) return [`${from}: ${url}: no file ${found.file}`];
			if (found.anchor === undefined) return [];
			if (!found.file.endsWith('.md')) return [`${from}: ${url}: an anchor in a non-Markdown file`];
			const anchors = anchorsOf(readFileSync(path, 'utf8'));
			return anchors.has(found.anchor)
				? []
				: [`${from}: ${url}: ${found.file} has no heading #${found.anchor}`];
		});
		expect(broken).toEqual([]);
	});
});

/**
 * The link behind n8n's Docs button, as the editor builds it (n8n 2.41.1 and 1.123, editor-ui
 * `useNodeDocsUrl`): the codex's primaryDocumentation URL with `?utm_source=…` appended as text, so a
 * `#fragment` in it would end up before the query and match no heading. A credential's
 * documentationUrl on a host other than docs.n8n.io is used as it is.
 */
function n8nNodeDocsLink(codexUrl: string, nodeType: string): string {
	const utm = new URLSearchParams({
		utm_source: 'n8n_app',
		utm_medium: 'node_settings_modal-credential_link',
		utm_campaign: nodeType,
	});
	return `${codexUrl}?${utm.toString()}`;
}

describe("the Docs links n8n builds land on the node's own page", () => {
	const codexFiles = [
		['nodes/WorkspacePractice/WorkspacePractice.node.json', 'docs/nodes/workspace-practice.md'],
		[
			'nodes/WorkspacePracticeTrigger/WorkspacePracticeTrigger.node.json',
			'docs/nodes/workspace-practice-trigger.md',
		],
		[
			'nodes/WorkspacePracticeJobTrigger/WorkspacePracticeJobTrigger.node.json',
			'docs/nodes/workspace-practice-job-trigger.md',
		],
	];

	it.each(codexFiles)('%s → %s, no fragment, the query after the page', (codex, page) => {
		const json = JSON.parse(readFileSync(join(ROOT, codex), 'utf8')) as {
			node: string;
			resources: { primaryDocumentation: Array<{ url: string }> };
		};
		const built = new URL(n8nNodeDocsLink(json.resources.primaryDocumentation[0].url, json.node));
		expect(built.hash).toBe('');
		expect(built.pathname).toBe(
			`/workspace-practice/n8n-nodes-workspace-practice/blob/main/${page}`,
		);
		expect(built.searchParams.get('utm_source')).toBe('n8n_app');
		expect(existsSync(join(ROOT, page))).toBe(true);
		// The page is about this node: its title names the node.
		expect(readFileSync(join(ROOT, page), 'utf8').split('\n')[0]).toMatch(/^# Workspace Practice/);
	});

	it('each credential links its own page, without a fragment', () => {
		const credentialLinks = links.filter((link) => link.from.startsWith('credentials/'));
		expect(credentialLinks.map((link) => link.url.replace(/^.*\/docs\//, 'docs/')).sort()).toEqual([
			'docs/credentials/workspace-practice-api.md',
			'docs/credentials/workspace-practice-webhook-secret-api.md',
		]);
		for (const { url } of credentialLinks) expect(url).not.toContain('#');
	});

	it('no link in what ships has a fragment n8n could break', () => {
		expect(links.filter((link) => link.url.includes('#'))).toEqual([]);
	});
});

describe('relative links in README.md, CONTRIBUTING.md, ARCHITECTURE.md, docs/ and examples/README.md', () => {
	const docs = [
		'README.md',
		'CONTRIBUTING.md',
		'ARCHITECTURE.md',
		'examples/README.md',
		...readdirSync(join(ROOT, 'docs'))
			.filter((name) => name.endsWith('.md'))
			.map((name) => `docs/${name}`),
	];

	it('name a file that exists and, with an #anchor, a heading of it', () => {
		const broken = docs.flatMap((doc) => {
			const text = readFileSync(join(ROOT, doc), 'utf8').replace(/```[\s\S]*?```/g, '');
			return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
				.map((match) => match[1])
				.filter((href) => !/^[a-z]+:/.test(href))
				.flatMap((href) => {
					const [path, anchor] = href.split('#') as [string, string | undefined];
					const file = path ? relative(ROOT, join(ROOT, dirname(doc), path)) : doc;
					if (!existsSync(join(ROOT, file))) return [`${doc}: ${href}: no file ${file}`];
					if (anchor === undefined || !file.endsWith('.md')) return [];
					return anchorsOf(readFileSync(join(ROOT, file), 'utf8')).has(anchor)
						? []
						: [`${doc}: ${href}: ${file} has no heading #${anchor}`];
				});
		});
		expect(broken).toEqual([]);
	});
});

describe('GitHub anchors, as this test makes them', () => {
	it.each([
		['Job Trigger', 'job-trigger'],
		["Repository layout and n8n's strict mode", 'repository-layout-and-n8ns-strict-mode'],
		['What `npm test` checks', 'what-npm-test-checks'],
		['Scenario Job → Create: waiting', 'scenario-job--create-waiting'],
	])('%s → #%s', (heading, anchor) => {
		expect(githubAnchor(heading)).toBe(anchor);
	});

	it('number repeated headings and skip code blocks', () => {
		const anchors = anchorsOf('# A\n## A\n```\n# B\n```\n');
		expect([...anchors]).toEqual(['a', 'a-1']);
	});
});
