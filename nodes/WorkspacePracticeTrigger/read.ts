import type { IDataObject, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { apiListPage, MAX_PAGE_SIZE } from '../WorkspacePractice/transport';
import type { Stamp } from './timestamps';
import { stampParam } from './timestamps';

export const PAGES_PATH = '/knowledge-hub/pages';
export const SOURCES_PATH = '/knowledge-hub/sources';

/** A list read again from the start at most this often when it changes under the reader. */
const READ_ATTEMPTS = 3;

/** Time a poll may spend listing before it settles for the oldest part of a large backlog. */
export class Budget {
	private readonly started = Date.now();

	constructor(private readonly limitMs: number) {}

	/**
	 * Half of what n8n allows a poll (n8n 2.x says how much; 1.x has no limit, five minutes is used), so
	 * the detail requests and the hand-off still fit.
	 */
	static of(ctx: IPollFunctions): Budget {
		const allowed = typeof ctx.getPollBudgetMs === 'function' ? ctx.getPollBudgetMs() : 5 * 60_000;
		return new Budget(Math.max(0, allowed) / 2);
	}

	static unlimited(): Budget {
		return new Budget(Infinity);
	}

	spent(): boolean {
		return Date.now() - this.started >= this.limitMs;
	}
}

export interface PageRead {
	/** Rows oldest first (by updated_at; on equal timestamps, in the order the service changed them). */
	rows: IDataObject[];
	/** False when the budget ran out: `rows` are then the oldest part of the changes, without gaps. */
	complete: boolean;
}

function changedWhileReading(ctx: IPollFunctions, what: string): NodeOperationError {
	return new NodeOperationError(ctx.getNode(), `The Knowledge Hub ${what} list kept changing while the trigger read it`, {
		description: `It was read ${READ_ATTEMPTS} times and differed each time. Nothing was emitted and the trigger's position did not move; the next poll reads the same changes again.`,
	});
}

/**
 * Every page updated on or after `from` (all pages when undefined), newest-first as the service sorts,
 * returned oldest first.
 *
 * Page 1 says how many rows there are and the newest timestamp. The other pages are then read from the
 * last (oldest) back to page 2 with `updated_before` pinned to that newest timestamp: a page changed
 * meanwhile leaves the range instead of shifting rows across page boundaries, a removal only shifts
 * rows already read, and a changed row count means something moved into the range, so the read starts
 * again. Each request brings rows the result needs; nothing is read twice in a normal poll.
 */
export async function readPageChanges(
	ctx: IPollFunctions,
	filters: IDataObject,
	from: Stamp | undefined,
	budget: Budget,
	isNew: (row: IDataObject) => boolean,
): Promise<PageRead> {
	const query: IDataObject = { ...filters, sort: 'updated_at' };
	if (from !== undefined) query.updated_after = stampParam(from);
	for (let attempt = 1; attempt <= READ_ATTEMPTS; attempt++) {
		const first = await apiListPage<IDataObject>(ctx, PAGES_PATH, query, 1, MAX_PAGE_SIZE);
		const { total_count: total, total_pages: pages } = first.pagination;
		if (pages <= 1 || first.data.length === 0) return { rows: [...first.data].reverse(), complete: true };

		const pinned: IDataObject = { ...query, updated_before: first.data[0].updated_at };
		const older: IDataObject[][] = [];
		let complete = true;
		let moved = false;
		for (let page = pages; page >= 2; page--) {
			const next = await apiListPage<IDataObject>(ctx, PAGES_PATH, pinned, page, MAX_PAGE_SIZE);
			if (next.pagination.total_count !== total) {
				moved = true;
				break;
			}
			older.push([...next.data].reverse());
			// Out of time: stop once something new is in hand, so every poll makes progress.
			if (page > 2 && budget.spent() && older.some((rows) => rows.some(isNew))) {
				complete = false;
				break;
			}
		}
		if (moved) continue;
		const rows = complete ? [...older.flat(), ...[...first.data].reverse()] : older.flat();
		return { rows: lastOccurrence(rows), complete };
	}
	throw changedWhileReading(ctx, 'page');
}

/**
 * Every ready source matching the filters. The list has no time filter and is ordered by creation, so
 * it is read whole, checking the row count stays put so no row slips between two pages.
 */
export async function readReadySources(ctx: IPollFunctions, filters: IDataObject): Promise<IDataObject[]> {
	const query: IDataObject = { ...filters, status: 'ready' };
	for (let attempt = 1; attempt <= READ_ATTEMPTS; attempt++) {
		const first = await apiListPage<IDataObject>(ctx, SOURCES_PATH, query, 1, MAX_PAGE_SIZE);
		const { total_count: total, total_pages: pages } = first.pagination;
		const rows = [...first.data];
		let moved = false;
		for (let page = 2; page <= pages; page++) {
			const next = await apiListPage<IDataObject>(ctx, SOURCES_PATH, query, page, MAX_PAGE_SIZE);
			if (next.pagination.total_count !== total) {
				moved = true;
				break;
			}
			rows.push(...next.data);
		}
		if (!moved) return lastOccurrence(rows);
	}
	throw changedWhileReading(ctx, 'source');
}

/** One row per id, the last one read (rows are in order, so the latest state) in its place. */
function lastOccurrence(rows: IDataObject[]): IDataObject[] {
	const last = new Map<unknown, number>();
	rows.forEach((row, index) => last.set(row.id, index));
	return rows.filter((row, index) => last.get(row.id) === index);
}
