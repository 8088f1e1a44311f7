/** Service timestamps as canonical UTC strings with nine fraction digits: they compare as strings. */

const ISO =
	/^(\d{4}-\d{2}-\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?(Z|[+-]\d{2}:?\d{2})?$/i;

/** A canonical timestamp: `YYYY-MM-DDTHH:MM:SS.fffffffffZ`. */
export type Stamp = string;

/** Canonical form of a service timestamp, or undefined when it is not an ISO 8601 date-time. */
export function toStamp(value: unknown): Stamp | undefined {
	if (typeof value !== 'string') return undefined;
	const match = ISO.exec(value.trim());
	if (!match) return undefined;
	const [, date, hours, minutes, seconds = '00', fraction = '', zone = 'Z'] = match;
	const wholeSeconds = Date.parse(`${date}T${hours}:${minutes}:${seconds}${zone.toUpperCase()}`);
	if (Number.isNaN(wholeSeconds)) return undefined;
	return `${new Date(wholeSeconds).toISOString().slice(0, 19)}.${fraction.slice(0, 9).padEnd(9, '0')}Z`;
}

/** The later of two stamps (undefined counts as "none"). */
export function maxStamp(a: Stamp | undefined, b: Stamp | undefined): Stamp | undefined {
	if (a === undefined) return b;
	if (b === undefined) return a;
	return a >= b ? a : b;
}

/** The stamp moved by `ms` milliseconds (negative goes back), keeping the digits below a millisecond. */
export function shiftStamp(stamp: Stamp, ms: number): Stamp {
	const millis = Date.parse(`${stamp.slice(0, 23)}Z`) + ms;
	return `${new Date(millis).toISOString().slice(0, 23)}${stamp.slice(23)}`;
}

/**
 * The stamp as a query value: milliseconds when nothing finer is set (the form the service writes),
 * otherwise every digit, so an inclusive bound never moves past a row it should include.
 */
export function stampParam(stamp: Stamp): string {
	const fine = stamp.slice(23, 29);
	return fine === '000000' ? `${stamp.slice(0, 23)}Z` : stamp;
}
