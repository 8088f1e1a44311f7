import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { validator } from '../../shared/validate';
import { SERVICE_LIMITS, type PaceLimits } from '../../shared/transport';

/** Items whose requests may be in flight at once unless the form says otherwise. */
export const DEFAULT_ITEMS_IN_PARALLEL = 10;

/** Upper bound of Items in Parallel: more only opens sockets the pacing holds back anyway. */
const MAX_ITEMS_IN_PARALLEL = 100;

/** A sanity bound for the per-minute settings (a typo of extra digits fails clearly). */
const MAX_RATE = 100_000;

/** Named after n8n's HTTP Request node's Batching; the defaults fit the service's limits. */
export const batchingField: INodeProperties = {
	displayName: 'Batching',
	name: 'batching',
	type: 'collection',
	placeholder: 'Add Batching Setting',
	default: {},
	description:
		"How many input items run at once and how fast requests go. The defaults fit the service's limits (60 requests and 10 job or studio creations a minute per workspace key), so a run alone on its key gets no 429.",
	options: [
		{
			displayName: 'Creations per Minute',
			name: 'creationsPerMinute',
			type: 'number',
			typeOptions: { minValue: 0 },
			default: 10,
			description:
				'Scenario job and studio session creations this key may send in any minute (the service allows 10). Above that the service answers 429. 0 turns this pacing off.',
		},
		{
			displayName: 'Items in Parallel',
			name: 'itemsInParallel',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: MAX_ITEMS_IN_PARALLEL },
			default: DEFAULT_ITEMS_IN_PARALLEL,
			description:
				'Input items whose requests may be in flight at once (1 = one after another). Output order stays the input order. Costs no requests: the limits below still hold.',
		},
		{
			displayName: 'Requests per Minute',
			name: 'requestsPerMinute',
			type: 'number',
			typeOptions: { minValue: 0 },
			default: 60,
			description:
				"Requests this key may send in any minute, shared by every run in this n8n process that uses the same credential. Above 60 the service answers 429 and each of those answers counts against the day's 1,000 requests. 0 turns pacing off (only for a service without this limit).",
		},
	],
};

export interface Batching extends PaceLimits {
	itemsInParallel: number;
}

/** Each setting's label, default and bounds. */
const LIMITS: Record<keyof Batching, [string, number, number, number]> = {
	itemsInParallel: ['Items in Parallel', DEFAULT_ITEMS_IN_PARALLEL, 1, MAX_ITEMS_IN_PARALLEL],
	requestsPerMinute: ['Requests per Minute', SERVICE_LIMITS.requestsPerMinute, 0, MAX_RATE],
	creationsPerMinute: ['Creations per Minute', SERVICE_LIMITS.creationsPerMinute, 0, MAX_RATE],
};

/** The run's Batching, read once (from the first item) and checked before any request. */
export function readBatching(ctx: IExecuteFunctions): Batching {
	const raw = ctx.getNodeParameter('batching', 0, {}) as IDataObject;
	const check = validator(ctx, 0);
	const read = (name: keyof Batching) => {
		const [label, fallback, min, max] = LIMITS[name];
		const value = raw[name];
		return value === undefined ? fallback : check.intRange(`Batching → ${label}`, value, min, max);
	};
	return {
		itemsInParallel: read('itemsInParallel'),
		requestsPerMinute: read('requestsPerMinute'),
		creationsPerMinute: read('creationsPerMinute'),
	};
}
