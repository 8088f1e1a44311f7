import type { Stream } from './state';
import type { Stamp } from './timestamps';
import { maxStamp, shiftStamp } from './timestamps';

/** Rows this far behind the cursor are read again: late commits, and a service clock stepping back. */
export const OVERLAP_MS = 2 * 60_000;

/** The span of service time a poll considers: from `from` (inclusive), strictly after `after`. */
export interface Window {
	from?: Stamp;
	after?: Stamp;
}

export function windowOf(stream: { cursor: Stamp | null; floor?: Stamp; from?: Stamp }): Window {
	const overlap = stream.cursor === null ? undefined : shiftStamp(stream.cursor, -OVERLAP_MS);
	return {
		from:
			stream.from !== undefined && overlap !== undefined && stream.from < overlap
				? stream.from
				: overlap,
		after: stream.floor,
	};
}

export function inWindow(window: Window, stamp: Stamp): boolean {
	return (
		(window.from === undefined || stamp >= window.from) &&
		(window.after === undefined || stamp > window.after)
	);
}

/** The inclusive lower bound to ask the service for (it filters on or after). */
export function lowerBound(window: Window): Stamp | undefined {
	return maxStamp(window.from, window.after);
}

/** Keeps the keys still inside the window of the stream's cursor, within the size bound (changes.ts). */
export function pruneStream(stream: Stream): Stream {
	const window = windowOf(stream);
	const seen = stream.seen.copy();
	const dropped = seen.prune((stamp) => inWindow(window, stamp));
	const out: Stream = { cursor: stream.cursor, seen };
	const floor = maxStamp(stream.floor, dropped);
	if (floor !== undefined) out.floor = floor;
	if (stream.from !== undefined) out.from = stream.from;
	if (stream.newest !== undefined) out.newest = stream.newest;
	if (stream.digest !== undefined) out.digest = stream.digest;
	if (stream.known !== undefined) out.known = stream.known;
	if (stream.progress !== undefined) out.progress = stream.progress;
	if (stream.pass !== undefined) out.pass = stream.pass;
	return out;
}
