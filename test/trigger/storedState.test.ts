/**
 * Static data written by the released trigger is read back as it was (ARCHITECTURE.md, Frozen): an
 * active workflow's stored position survives an upgrade. The fixtures are what each family stores.
 */
import type { IDataObject } from 'n8n-workflow';

import { readState as readKnowledgeHub } from '../../nodes/WorkspacePracticeTrigger/knowledgeHub/state';
import type { PracticeSettings } from '../../nodes/WorkspacePracticeTrigger/practice/settings';
import { readState as readPractice } from '../../nodes/WorkspacePracticeTrigger/practice/state';

const clone = (value: IDataObject): IDataObject => JSON.parse(JSON.stringify(value)) as IDataObject;

describe('Knowledge Hub Changes, state version 2', () => {
	const stored: IDataObject = {
		v: 2,
		readAt: 1_790_000_000_000,
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

	test('every stream field is read back unchanged (readAt stays in the static data for the interval)', () => {
		const { readAt, ...rest } = stored;
		expect(readAt).toBeDefined();
		expect(JSON.parse(JSON.stringify(readKnowledgeHub(clone(stored))))).toEqual(rest);
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
		readAt: 1_790_000_000_000,
		scored: { anchor: 1_789_990_000_000, seen: { 'session-1': 1_789_980_000_000 } },
		assignments: {
			v: 2,
			open: { a1: ['n', 'u1', 's1', 0] },
			fin: {},
			floor: null,
			nextOpenRead: 0,
		},
	};

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
