import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import { apiRequest } from '../transport';

/**
 * Extraction of a web page usually takes seconds to a minute: the first read comes after 10 s, then
 * the pause doubles up to a minute. A source ready after one minute costs 4 calls (the creation and
 * reads at 10 s, 30 s and 70 s); the 5-minute default limit at most 8 (reads at 10, 30, 70, 130, 190,
 * 250 and 300 s).
 */
export const SOURCE_FIRST_CHECK_SECONDS = 10;
export const SOURCE_POLL_CAP_MS = 60_000;
export const SOURCE_TIME_LIMIT_MINUTES = 5;
export const SOURCE_MAX_TIME_LIMIT_MINUTES = 60;

export interface SourceWaitSettings {
	firstDelayMs: number;
	timeLimitMs: number;
	itemIndex: number;
}

/** One source to wait for: as the creation returned it, when (Date.now() right after) and how. */
export interface WaitingSource {
	source: IDataObject;
	createdAt: number;
	settings: SourceWaitSettings;
}

/** A source's end: ready, or the error its wait ended with (failed extraction, time limit, a read). */
export type SourceOutcome = { source: IDataObject } | { error: unknown };

const isSettled = (status: unknown) => status === 'ready' || status === 'failed';

function sourceName(source: IDataObject): string {
	return `Source "${String(source.title ?? '')}" (${String(source.id)})`;
}

/** A ready source, or the error a failed one becomes: it names the source and says what to do. */
export function settleSource(
	ctx: IExecuteFunctions,
	source: IDataObject,
	itemIndex: number,
): IDataObject {
	if (source.status !== 'failed') return source;
	const url = typeof source.external_url === 'string' ? ` from ${source.external_url}` : '';
	throw new NodeOperationError(
		ctx.getNode(),
		`${sourceName(source)}: text extraction failed${url}`,
		{
			itemIndex,
			description: `The service could not extract text from this address. Check that it is public and shows the text without a login, then archive this source (Knowledge Hub Source → Archive) and create it again: until it is archived, the same URL returns this failed source.`,
		},
	);
}

function timeLimitError(
	ctx: IExecuteFunctions,
	source: IDataObject,
	settings: SourceWaitSettings,
): NodeOperationError {
	const minutes = Math.round((settings.timeLimitMs / 60_000) * 100) / 100;
	return new NodeOperationError(
		ctx.getNode(),
		`${sourceName(source)} was not ready within ${minutes} minute(s); its last status was "${String(source.status)}"`,
		{
			itemIndex: settings.itemIndex,
			description:
				'Extraction goes on on the service. Raise Options → Time Limit (Minutes), or read the source later with Knowledge Hub Source → Get.',
		},
	);
}

interface Pending {
	index: number;
	source: IDataObject;
	deadline: number;
	delay: number;
	wakeAt: number;
	settings: SourceWaitSettings;
}

/**
 * Waits on many sources in one loop, each on its own schedule (first delay, doubling to
 * SOURCE_POLL_CAP_MS, a last read at its deadline, counted from its own creation), so a list costs
 * per source what one source costs alone. Outcomes come back in the order given; a failed extraction
 * is an error outcome naming the source.
 */
export async function waitSourcesReady(
	ctx: IExecuteFunctions,
	sources: WaitingSource[],
): Promise<SourceOutcome[]> {
	const outcomes: Array<SourceOutcome | undefined> = sources.map(({ source, settings }) =>
		isSettled(source.status) ? settle(ctx, source, settings.itemIndex) : undefined,
	);
	let pending: Pending[] = [];
	sources.forEach(({ source, createdAt, settings }, index) => {
		if (outcomes[index]) return;
		const deadline = createdAt + settings.timeLimitMs;
		const delay = Math.max(0, settings.firstDelayMs);
		pending.push({
			index,
			source,
			deadline,
			delay,
			wakeAt: Math.min(createdAt + delay, deadline),
			settings,
		});
	});

	while (pending.length > 0) {
		const pause = Math.min(...pending.map((p) => p.wakeAt)) - Date.now();
		if (pause > 0) await sleep(pause);
		for (const entry of pending.filter((p) => p.wakeAt <= Date.now())) {
			const outcome = await readOnce(ctx, entry);
			if (outcome) outcomes[entry.index] = outcome;
		}
		pending = pending.filter((p) => outcomes[p.index] === undefined);
	}
	return outcomes.map(
		(outcome) => outcome ?? { error: new Error('source left without an outcome') },
	);
}

function settle(ctx: IExecuteFunctions, source: IDataObject, itemIndex: number): SourceOutcome {
	try {
		return { source: settleSource(ctx, source, itemIndex) };
	} catch (error) {
		return { error };
	}
}

async function readOnce(
	ctx: IExecuteFunctions,
	entry: Pending,
): Promise<SourceOutcome | undefined> {
	const id = String(entry.source.id);
	try {
		const { body } = await apiRequest<IDataObject>(ctx, {
			method: 'GET',
			path: `/knowledge-hub/sources/${encodeURIComponent(id)}`,
			itemIndex: entry.settings.itemIndex,
			what: `source ${id}`,
		});
		if (isSettled(body.status)) return settle(ctx, body, entry.settings.itemIndex);
		if (Date.now() >= entry.deadline) return { error: timeLimitError(ctx, body, entry.settings) };
		entry.delay = Math.min(Math.max(entry.delay, 1) * 2, SOURCE_POLL_CAP_MS);
		entry.wakeAt = Math.min(Date.now() + entry.delay, entry.deadline);
		return undefined;
	} catch (error) {
		return { error };
	}
}
