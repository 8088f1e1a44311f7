/** The seen set (changes.ts) and the stored state (knowledgeHub/state.ts), without HTTP. */
import {
	changeKey,
	SEEN_MAX_BYTES,
	SeenChanges,
} from '../../nodes/WorkspacePracticeTrigger/knowledgeHub/changes';
import { readState } from '../../nodes/WorkspacePracticeTrigger/knowledgeHub/state';

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

describe('stored state', () => {
	test('another version (version 1 was never released) starts over', () => {
		const stream = { cursor: T, seen: {} };
		expect(readState({ v: 2, pages: stream }).pages?.cursor).toBe(T);
		expect(readState({ v: 1, pages: stream })).toEqual({ v: 2 });
		expect(readState({ v: 99, pages: stream })).toEqual({ v: 2 });
	});
});
