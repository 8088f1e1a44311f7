/**
 * Static data written by the released trigger is read back as it was (ARCHITECTURE.md, Frozen): an
 * active workflow's stored position survives an upgrade. Each fixture is a state as a family stores
 * it; the first test of each family holds the fixture to what the trigger writes today (a real
 * activation and a change, through n8n-core against the simulator), so a writer that renames, adds or
 * retypes a field fails here rather than only in a fixture nobody regenerates.
 */
import type { IDataObject } from 'n8n-workflow';

import { readState as readKnowledgeHub } from '../../nodes/WorkspacePracticeTrigger/knowledgeHub/state';
import type { PracticeSettings } from '../../nodes/WorkspacePracticeTrigger/practice/settings';
import { readState as readPractice } from '../../nodes/WorkspacePracticeTrigger/practice/state';
import { practiceTrigger } from './practiceSetup';
import { useRig } from './setup';

const clone = (value: IDataObject): IDataObject => JSON.parse(JSON.stringify(value)) as IDataObject;

/** Objects keyed by data (a timestamp, a session or assignment ID): their values share one shape. */
const KEYED_BY_DATA = new Set(['seen', 'open', 'fin']);

/**
 * Where `written` departs from `fixture`'s shape: a field the fixture lacks, or a value of another
 * type (arrays element by element). Fields only the fixture has are optional ones this run left out.
 */
function shapeDifferences(written: unknown, fixture: unknown, path = 'state'): string[] {
	const kind = (value: unknown) =>
		value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
	if (kind(written) !== kind(fixture))
		return [`${path}: written ${kind(written)}, fixture ${kind(fixture)}`];
	if (Array.isArray(written) && Array.isArray(fixture)) {
		if (written.length !== fixture.length)
			return [`${path}: written ${written.length} elements, fixture ${fixture.length}`];
		return written.flatMap((value, i) => shapeDifferences(value, fixture[i], `${path}[${i}]`));
	}
	if (kind(written) !== 'object') return [];
	const [w, f] = [written as IDataObject, fixture as IDataObject];
	const name = path.split('.').pop() ?? '';
	if (KEYED_BY_DATA.has(name)) {
		const example = Object.values(f)[0];
		return Object.values(w).flatMap((value) => shapeDifferences(value, example, `${path}.*`));
	}
	return Object.keys(w).flatMap((key) =>
		key in f
			? shapeDifferences(w[key], f[key], `${path}.${key}`)
			: [`${path}.${key}: written, not in the fixture`],
	);
}

const rig = useRig();

describe('Knowledge Hub Changes, state version 2', () => {
	const stored: IDataObject = {
		v: 2,
		pages: {
			cursor: '2026-03-16T12:00:00.000000000Z',
			seen: { '2026-03-16T12:00:00.000000000Z': 'AAAAAAAAbbbbbbbb' },
			floor: '2026-03-16T11:58:00.000000000Z',
			from: '2026-03-16T11:50:00.000000000Z',
			newest: '2026-03-16T12:00:00.000000000Z',
		},
		sources: {
			cursor: null,
			seen: {},
			digest: '3:1a2b3c4d',
		},
	};

	test('the fixture has the shape the trigger writes (activation, then a new page)', async () => {
		const trigger = rig.harness({
			events: ['pageCreated', 'pageUpdated', 'pagePublished', 'sourceReady'],
		} as never);
		expect((await trigger.poll()).error).toBeUndefined();
		rig.sim.control.advance(1000);
		rig.sim.control.createPage({ title: 'Written after activation' });
		expect((await trigger.poll()).items).toHaveLength(1);
		const written = trigger.stored;
		// The sources stream of the fixture was empty at activation; this run's has a source.
		const fixture = clone(stored);
		(fixture.sources as IDataObject).cursor = '2026-02-17T09:05:00.000000000Z';
		(fixture.sources as IDataObject).seen = { '2026-02-17T09:05:00.000000000Z': 'pIc49Vqi' };
		expect(shapeDifferences(written, fixture)).toEqual([]);
		expect(Object.keys(written.pages as IDataObject).sort()).toEqual(['cursor', 'newest', 'seen']);
	});

	test('every stream field is read back unchanged', () => {
		expect(JSON.parse(JSON.stringify(readKnowledgeHub(clone(stored))))).toEqual(stored);
	});

	test("another family's state is not taken for this one", () => {
		expect(readKnowledgeHub({ v: 'practice-1', key: '[]' })).toEqual({ v: 2 });
	});
});

describe('Practice Results, state practice-1', () => {
	const settings = {
		events: new Set(['sessionScored']),
		scoredQuery: { rank: 'gold,silver,bronze,unranked' },
		ranks: [],
		deriveQuery: undefined,
		assignmentQuery: {},
		lookbackHours: 6,
	} as unknown as PracticeSettings;
	// The key format is part of the stored state: a different one would start every trigger over.
	const key = '[["sessionScored"],{"rank":"gold,silver,bronze,unranked"},[],null,{},6]';
	const stored: IDataObject = {
		v: 'practice-1',
		key,
		scored: { anchor: 1_789_990_000_000, seen: { 'session-1': 1_789_980_000_000 } },
		assignments: {
			v: 2,
			open: { a1: ['n', 'u1', 's1', 1_789_900_000_000] },
			fin: {},
			floor: 1_789_000_000_000,
			nextOpenRead: 0,
		},
		time: 1_789_990_000_000,
	};

	test('the fixture has the shape the trigger writes (activation, then a scored session)', async () => {
		const trigger = await practiceTrigger(rig, ['sessionScored', 'assignmentCompleted']);
		rig.sim.control.addSession({
			userEmail: 'bob@acme.com',
			scenario: 'procurement-discovery',
			score: 50,
		});
		expect((await trigger.poll()).items).toHaveLength(1);
		const written = trigger.stored;
		expect(Object.keys((written.assignments as IDataObject).open as IDataObject)).not.toEqual([]);
		expect(shapeDifferences(written, stored)).toEqual([]);
		// The key is built the same way: the events, the queries read, Rank and Lookback Hours.
		expect(JSON.parse(written.key as string)).toEqual([
			['assignmentCompleted', 'sessionScored'],
			...(JSON.parse(key) as unknown[]).slice(1, 3),
			{ rank: 'gold,silver,bronze,unranked' },
			{},
			6,
		]);
	});

	test('the state built for the same filters is read back unchanged', () => {
		expect(readPractice(clone(stored), settings)).toEqual(stored);
	});

	test('other filters, or the Knowledge Hub state, start over', () => {
		const other = { ...settings, lookbackHours: 12 } as PracticeSettings;
		expect(readPractice(clone(stored), other)).toEqual({
			v: 'practice-1',
			key: key.replace(',6]', ',12]'),
		});
		expect(readPractice({ v: 2, pages: {} }, settings)).toEqual({ v: 'practice-1', key });
	});
});
