/**
 * Item 7: the Knowledge Hub sync's costs. `sourceWait`: API calls for Create From URL with Wait Until
 * Ready (By Polling, default settings) on a source whose extraction takes one minute (10 s pending,
 * 50 s processing), the create included. In virtual time: the simulator runs in this process on a
 * ManualClock, and every pause from a second to two minutes (the node's sleeps, Retry-After) moves that clock and Date.now
 * by its length and returns at once, so the count depends on the schedule only, not on the machine's
 * load (a scaled real clock counted 2 on a loaded machine: the extraction ended before the first
 * read). `pageSync`: 20 Markdown files
 * (as n8n's Read Files from Disk gives them) through Knowledge Hub Page → Create or Update, run three
 * times: first (creates), again unchanged (expected 0 writes), then with one file changed; with the
 * deployed limits on, in virtual time too (a 429's Retry-After passes at once). Calls answered 429 are
 * counted apart; they are retried by the transport.
 */
import type { IDataObject } from 'n8n-workflow';

import { ManualClock, startSimulator, type RunningSimulator } from '../../simulator';
import { config } from '../config';
import { runOperation } from '../runOperation';
import type { PageSyncFigures, SourceWaitFigures } from '../results';
import { median } from '../stats';

const EXTRACTION = { pendingMs: 10_000, processingMs: 50_000 };
const PAGES = 20;

function sourceCalls(sim: RunningSimulator, url: string, id: string): number {
	return sim.control
		.requests({ path: '/knowledge-hub/sources*' })
		.filter(
			(r) =>
				(r.method === 'POST' && (r.body as IDataObject | undefined)?.url === url) ||
				r.path.endsWith(`/${id}`),
		).length;
}

/** Pauses from a second to two minutes pass in virtual time (see above) until the returned function restores. */
function virtualTime(clock: ManualClock): () => void {
	const realTimeout = globalThis.setTimeout;
	const realNow = Date.now.bind(Date);
	let offset = 0;
	const timeout = (handler: (...args: unknown[]) => void, ms?: number, ...args: unknown[]) => {
		// Request time-outs (minutes) stay real: only pauses up to two minutes are the node's waits.
		if (typeof ms !== 'number' || ms < 1000 || ms > 120_000)
			return realTimeout(handler, ms, ...args);
		offset += ms;
		clock.advance(ms);
		return realTimeout(handler, 0, ...args);
	};
	// Node's setTimeout type carries a promisify marker the wrapper does not need.
	globalThis.setTimeout = timeout as unknown as typeof setTimeout;
	Date.now = () => realNow() + offset;
	return () => {
		globalThis.setTimeout = realTimeout;
		Date.now = realNow;
	};
}

export async function benchSourceWait(): Promise<SourceWaitFigures> {
	const clock = new ManualClock();
	const sim = await startSimulator({ clock, sourceTimings: EXTRACTION, rateLimits: true });
	const restore = virtualTime(clock);
	try {
		const runs: number[] = [];
		for (let run = 0; run < config.runs; run++) {
			const url = `https://example.com/bench/one-minute-${run}`;
			const [item] = await runOperation(sim, {
				resource: 'knowledgeHubSource',
				operation: 'createFromUrl',
				url,
				title: `One-minute extraction ${run}`,
			});
			if (item?.json.status !== 'ready')
				throw new Error(`Wait Until Ready ended with ${JSON.stringify(item?.json)}`);
			runs.push(sourceCalls(sim, url, String(item.json.id)));
		}
		return {
			extractionSeconds: (EXTRACTION.pendingMs + EXTRACTION.processingMs) / 1000,
			virtualTime: true,
			callsPerSource: median(runs),
			schedule: 'reads 10 s after the creation, then after 20 s, 40 s and every 60 s',
			runsDetail: runs,
		};
	} finally {
		restore();
		await sim.close();
	}
}

const fileItem = (i: number, text: string): IDataObject => ({
	fileName: `Page ${i}.md`,
	$binary: {
		data: {
			data: Buffer.from(text, 'utf8').toString('base64'),
			mimeType: 'text/markdown',
			fileName: `Page ${i}.md`,
			fileExtension: 'md',
		},
	},
});

export async function benchPageSync(): Promise<PageSyncFigures> {
	const clock = new ManualClock();
	const sim = await startSimulator({ clock, rateLimits: true });
	const restore = virtualTime(clock);
	try {
		const form = {
			resource: 'knowledgeHubPage',
			operation: 'createOrUpdate',
			title: "={{ $json.fileName.replace(/\\.md$/, '') }}",
			contentFrom: 'binary',
		};
		const files = Array.from({ length: PAGES }, (_, i) =>
			fileItem(i, `# Page ${i}\n\nSynced text ${i}.\n`),
		);
		let rateLimitedAnswers = 0;
		const pass = async (input: IDataObject[]) => {
			sim.control.clearRequests();
			const items = await runOperation(sim, form, input);
			const all = sim.control.requests({ path: '/knowledge-hub/*' });
			rateLimitedAnswers += all.filter((r) => r.status === 429).length;
			const calls = all.filter((r) => r.status !== 429);
			return {
				writes: calls.filter((r) => r.method !== 'GET').length,
				reads: calls.filter((r) => r.method === 'GET').length,
				results: items.map((item) => String(item.json.sync_result)),
			};
		};
		const first = await pass(files);
		const again = await pass(files);
		const changed = [...files];
		changed[7] = fileItem(7, '# Page 7\n\nChanged.\n');
		const oneChanged = await pass(changed);
		if (again.results.some((r) => r !== 'unchanged'))
			throw new Error(`the unchanged rerun gave ${again.results.join(', ')}`);
		return {
			pages: PAGES,
			firstRunWrites: first.writes,
			firstRunReads: first.reads,
			writesOnUnchangedRerun: again.writes,
			readsOnUnchangedRerun: again.reads,
			writesAfterOneChange: oneChanged.writes,
			readsAfterOneChange: oneChanged.reads,
			rateLimitedAnswers,
		};
	} finally {
		restore();
		await sim.close();
	}
}

/**
 * Issue 32: Create From URL over `count` items in one run (Wait Until Ready By Polling, defaults),
 * each source's extraction one minute: the creations, then one list read a round for all of them.
 * Every request to the sources endpoints is counted (429 answers too; there are none at this size).
 */
export async function benchSourceListWait(count: number): Promise<number> {
	const clock = new ManualClock();
	const sim = await startSimulator({ clock, sourceTimings: EXTRACTION, rateLimits: true });
	const restore = virtualTime(clock);
	try {
		const input = Array.from({ length: count }, (_, i) => ({
			url: `https://example.com/bench/list-${i}`,
			title: `List source ${i}`,
		}));
		const items = await runOperation(
			sim,
			{
				resource: 'knowledgeHubSource',
				operation: 'createFromUrl',
				url: '={{ $json.url }}',
				title: '={{ $json.title }}',
			},
			input,
		);
		const notReady = items.filter((item) => item.json.status !== 'ready');
		if (notReady.length > 0) throw new Error(`not ready: ${JSON.stringify(notReady[0].json)}`);
		return sim.control.requests({ path: '/knowledge-hub/sources*' }).length;
	} finally {
		restore();
		await sim.close();
	}
}

const SYNC_FILES = 500;

/**
 * Issue 32: 500 Markdown files into one folder (Within Folder) through Create or Update: created,
 * then an unchanged re-run with the node's memory (static data kept between runs, mode trigger, as
 * n8n runs an active workflow), one without (a manual run), and one file changed with memory. Every
 * request to the Knowledge Hub is counted, 429 answers included.
 */
export async function benchPageSync500(): Promise<{
	requestsOnUnchangedRerun500: number;
	requestsOnUnchangedRerun500Manual: number;
	requestsOneChanged500: number;
}> {
	const clock = new ManualClock();
	const sim = await startSimulator({ clock, rateLimits: true });
	const restore = virtualTime(clock);
	try {
		const folder = sim.control.store.data.folders[0];
		const form = {
			resource: 'knowledgeHubPage',
			operation: 'createOrUpdate',
			title: "={{ $json.fileName.replace(/\\.md$/, '') }}",
			contentFrom: 'binary',
			options: { withinFolder: { __rl: true, mode: 'id', value: folder.id } },
		};
		const files = (changed?: number) =>
			Array.from({ length: SYNC_FILES }, (_, i) =>
				fileItem(
					i,
					i === changed ? `# Page ${i}\n\nChanged.\n` : `# Page ${i}\n\nSynced text ${i}.\n`,
				),
			);
		const staticData: IDataObject = {};
		const pass = async (input: IDataObject[], active: boolean, expected: string, others = 0) => {
			// Each pass on a day of its own: the first and the manual one spend half the daily quota.
			clock.advance(86_400_000);
			sim.control.clearRequests();
			const items = await runOperation(
				sim,
				form,
				input,
				active ? { staticData, mode: 'trigger' } : {},
			);
			const results = items.map((item) => String(item.json.sync_result));
			const wrong = results.filter((result) => result !== expected);
			if (wrong.length !== others)
				throw new Error(`expected ${expected}, got ${wrong.slice(0, 3).join(', ')}`);
			return sim.control.requests({ path: '/knowledge-hub/*' }).length;
		};
		await pass(files(), true, 'created');
		return {
			requestsOnUnchangedRerun500: await pass(files(), true, 'unchanged'),
			requestsOnUnchangedRerun500Manual: await pass(files(), false, 'unchanged'),
			requestsOneChanged500: await pass(files(7), true, 'unchanged', 1),
		};
	} finally {
		restore();
		await sim.close();
	}
}
