/** Changes as 48-bit keys, never timestamps compared with the last: service clocks may step back. */
import type { Stamp } from './timestamps';
import { toStamp } from './timestamps';

/** An 8-character digest identifying one change. */
export type ChangeKey = string;

/** Most bytes a seen set takes in the static data, as JSON (newest timestamps kept whole). */
export const SEEN_MAX_BYTES = 40_000;

const KEY_LENGTH = 8;
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const KEYS = new RegExp(`^[${ALPHABET.replace('-', '\\-')}]*$`);

/** One 32-bit lane of the digest: FNV-style mixing from its own seed, then a murmur3 finaliser. */
function lane(text: string, seed: number, prime: number): number {
	let hash = seed;
	for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), prime);
	hash ^= hash >>> 16;
	hash = Math.imul(hash, 0x85ebca6b);
	hash ^= hash >>> 13;
	hash = Math.imul(hash, 0xc2b2ae35);
	hash ^= hash >>> 16;
	return hash >>> 0;
}

/** 24 bits as four characters of the alphabet. */
const chars24 = (bits: number): string =>
	[18, 12, 6, 0].map((shift) => ALPHABET[(bits >>> shift) & 63]).join('');

/** The key of a change from its identifying parts (family first); equal parts give equal keys. */
export function changeKey(parts: ReadonlyArray<string | number | null | undefined>): ChangeKey {
	// JSON keeps the parts apart: ['a|b'] and ['a', 'b'] differ.
	const text = JSON.stringify(parts.map((part) => (part === undefined ? null : part)));
	return chars24(lane(text, 0x811c9dc5, 0x01000193)) + chars24(lane(text, 0x9e3779b9, 0x5bd1e995));
}

/** JSON size of one timestamp group: `"<stamp>":"<keys>",`. */
const groupBytes = (stamp: Stamp, keys: number): number => stamp.length + keys * KEY_LENGTH + 6;

/** The changes already seen, with their timestamps for pruning; stored as `{ "<stamp>": "<keys>" }`. */
export class SeenChanges {
	private readonly stamps = new Map<ChangeKey, Stamp>();

	/** The stored form, or undefined when it is not one (the caller then starts over). */
	static fromJSON(raw: unknown): SeenChanges | undefined {
		if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return undefined;
		const seen = new SeenChanges();
		for (const [stamp, keys] of Object.entries(raw as Record<string, unknown>)) {
			if (toStamp(stamp) !== stamp || typeof keys !== 'string') return undefined;
			if (keys.length % KEY_LENGTH !== 0 || !KEYS.test(keys)) return undefined;
			for (let i = 0; i < keys.length; i += KEY_LENGTH)
				seen.add(keys.slice(i, i + KEY_LENGTH), stamp);
		}
		return seen;
	}

	get size(): number {
		return this.stamps.size;
	}

	has(key: ChangeKey): boolean {
		return this.stamps.has(key);
	}

	/** Records a change; a key seen again keeps the later of its two timestamps. */
	add(key: ChangeKey, stamp: Stamp): void {
		const before = this.stamps.get(key);
		if (before === undefined || stamp > before) this.stamps.set(key, stamp);
	}

	copy(): SeenChanges {
		const out = new SeenChanges();
		for (const [key, stamp] of this.stamps) out.stamps.set(key, stamp);
		return out;
	}

	/** Drops keys outside `keep`, then the oldest beyond `maxBytes`: returns the newest dropped for space. */
	prune(keep: (stamp: Stamp) => boolean, maxBytes = SEEN_MAX_BYTES): Stamp | undefined {
		const groups = this.groups();
		let bytes = 2;
		let droppedAt: Stamp | undefined;
		for (const [stamp, keys] of groups) {
			const fits =
				droppedAt === undefined &&
				keep(stamp) &&
				bytes + groupBytes(stamp, keys.length) <= maxBytes;
			if (fits) {
				bytes += groupBytes(stamp, keys.length);
				continue;
			}
			if (keep(stamp) && droppedAt === undefined) droppedAt = stamp;
			for (const key of keys) this.stamps.delete(key);
		}
		return droppedAt;
	}

	toJSON(): Record<Stamp, string> {
		const out: Record<Stamp, string> = {};
		for (const [stamp, keys] of this.groups()) out[stamp] = keys.sort().join('');
		return out;
	}

	/** Keys by timestamp, newest first. */
	private groups(): Array<[Stamp, ChangeKey[]]> {
		const byStamp = new Map<Stamp, ChangeKey[]>();
		for (const [key, stamp] of this.stamps) {
			const keys = byStamp.get(stamp);
			if (keys) keys.push(key);
			else byStamp.set(stamp, [key]);
		}
		return [...byStamp.entries()].sort(([a], [b]) => (a < b ? 1 : a > b ? -1 : 0));
	}
}

/** Most keys a `RecentKeys` holds: 20,000 characters in the static data. */
export const RECENT_MAX_KEYS = 2_500;

/** Keys in the order last touched, oldest dropped beyond `max`: a memory longer than the window. */
export class RecentKeys {
	private readonly keys = new Set<ChangeKey>();

	constructor(private readonly max = RECENT_MAX_KEYS) {}

	/** The stored form; anything else gives an empty set (what a trigger had before this existed). */
	static fromJSON(raw: unknown, max = RECENT_MAX_KEYS): RecentKeys {
		const out = new RecentKeys(max);
		if (typeof raw !== 'string' || raw.length % KEY_LENGTH !== 0 || !KEYS.test(raw)) return out;
		for (let i = 0; i < raw.length; i += KEY_LENGTH) out.touch(raw.slice(i, i + KEY_LENGTH));
		return out;
	}

	get size(): number {
		return this.keys.size;
	}

	has(key: ChangeKey): boolean {
		return this.keys.has(key);
	}

	/** Marks a key as just seen (newest); the oldest beyond the bound are dropped. */
	touch(key: ChangeKey): void {
		this.keys.delete(key);
		this.keys.add(key);
		for (const oldest of this.keys) {
			if (this.keys.size <= this.max) break;
			this.keys.delete(oldest);
		}
	}

	copy(): RecentKeys {
		return RecentKeys.fromJSON(this.toJSON(), this.max);
	}

	toJSON(): string {
		return [...this.keys].join('');
	}
}
