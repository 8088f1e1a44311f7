/** The seen set (changes.ts) and the stored state's upgrade from version 1 (knowledgeHub/state.ts), without HTTP. */
import type { IDataObject } from 'n8n-workflow';

import {
	changeKey,
	SEEN_MAX_BYTES,
	SeenChanges,
} from '../../nodes/WorkspacePracticeTrigger/knowledgeHub/changes';
import { windowOf } from '../../nodes/WorkspacePracticeTrigger/knowledgeHub/cursor';
import { readState } from '../../nodes/WorkspacePracticeTrigger/knowledgeHub/state';
import { pageChanges, pageStamps } from '../../nodes/WorkspacePracticeTrigger/knowledgeHub/events';

const T = '2026-03-16T12:00:00.000000000Z';
const T1 = '2026-03-16T12:00:01.000000000Z';

describe('changeKey', () => {
	test('equal parts give equal keys; any differing part, or parts split differently, another key', () => {
		expect(changeKey(['page-state', 'a', T, 'Title'])).toBe(
			changeKey(['page-state', 'a', T, 'Title']),
		);
		expect(changeKey(['page-state', 'a', T, 'Title'])).not.toBe(
			changeKey(['page-state', 'a', T, 'Title ']),
		);
		expect(changeKey(['a|b'])).not.toBe(changeKey(['a', 'b']));
		expect(changeKey([null])).toBe(changeKey([undefined]));
		expect(changeKey(['x'])).toMatch(/^[A-Za-z0-9_-]{8}$/);
	});

	test('no collision among 50,000 distinct keys', () => {
		const keys = new Set<string>();
		for (let i = 0; i < 50_000; i++) keys.add(changeKey(['page-state', `id-${i}`, T]));
		expect(keys.size).toBe(50_000);
	});
});

describe('SeenChanges', () => {
	test('round-trips through its stored form, keeping the later timestamp of a key seen twice', () => {
		const seen = new SeenChanges();
		seen.add(changeKey(['a']), T);
		seen.add(changeKey(['a']), T1);
		seen.add(changeKey(['b']), T);
		const stored = JSON.parse(JSON.stringify(seen)) as Record<string, string>;
		expect(Object.keys(stored).sort()).toEqual([T, T1]);
		const back = SeenChanges.fromJSON(stored)!;
		expect(back.size).toBe(2);
		expect(back.has(changeKey(['a'])) && back.has(changeKey(['b']))).toBe(true);
	});

	test('refuses a stored form it did not write', () => {
		expect(SeenChanges.fromJSON({ [T]: 'short' })).toBeUndefined();
		expect(SeenChanges.fromJSON({ 'not a time': 'AAAAAAAA' })).toBeUndefined();
		expect(SeenChanges.fromJSON(['AAAAAAAA'])).toBeUndefined();
	});

	test('prune keeps the newest timestamps whole within the byte bound and says where it cut', () => {
		const seen = new SeenChanges();
		for (let i = 0; i < 4000; i++) seen.add(changeKey(['new', i]), T1);
		for (let i = 0; i < 2000; i++) seen.add(changeKey(['old', i]), T);
		const cut = seen.prune(() => true);
		expect(cut).toBe(T);
		expect(seen.size).toBe(4000);
		expect(JSON.stringify(seen).length).toBeLessThanOrEqual(SEEN_MAX_BYTES);
		// A newest second larger than the bound alone is dropped too: rows at it are ignored from then on.
		for (let i = 0; i < 6000; i++) seen.add(changeKey(['more', i]), T1);
		expect(seen.prune(() => true)).toBe(T1);
		expect(seen.size).toBe(0);
	});
});

describe('state version 1 (0.1.0) is read, not dropped', () => {
	const row = {
		id: 'page-1',
		title: 'Guide',
		status: 'published',
		version: 2,
		created_at: '2026-03-16T11:00:00Z',
		updated_at: '2026-03-16T12:00:00Z',
		published_at: '2026-03-16T12:00:00Z',
	};
	const v1: IDataObject = {
		v: 1,
		pages: { cursor: T, seen: { 'page-1': [T, 2] } },
		sources: { cursor: T, seen: { 'source-1': T } },
	};

	test('the row last seen brings nothing; a later state of it is an update', () => {
		const state = readState(v1);
		const pages = state.pages!;
		const window = windowOf(pages);
		expect(pageChanges(pageStamps(row)!, pages.seen, window).events).toEqual([]);
		const edited = { ...row, updated_at: '2026-03-16T11:59:30Z', title: 'Guide, edited' };
		expect(pageChanges(pageStamps(edited)!, pages.seen, window).events).toEqual(['pageUpdated']);
		expect(state.sources?.seen.size).toBe(1);
	});

	test('an unknown version starts over', () => {
		expect(readState({ ...v1, v: 99 })).toEqual({ v: 2 });
	});
});
