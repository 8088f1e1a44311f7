/** Deterministic pseudo-random numbers and identifiers, so every run sees the same data. */

/**
 * mulberry32: numbers in [0, 1) from a 32-bit seed; small, fast, reproducible, good enough for fixtures.
 * The one copy: the simulator's `Rng` and the randomised tests draw from it.
 */
export function mulberry32(seed: number): () => number {
	let state = seed >>> 0;
	return () => {
		state = (state + 0x6d2b79f5) >>> 0;
		let t = state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

export class Rng {
	/** The next number in [0, 1). */
	readonly next: () => number;

	constructor(seed: number) {
		this.next = mulberry32(seed >>> 0 || 0x9e3779b9);
	}

	int(min: number, max: number): number {
		return min + Math.floor(this.next() * (max - min + 1));
	}

	pick<T>(items: readonly T[]): T {
		return items[Math.floor(this.next() * items.length)];
	}

	hex(n: number): string {
		let out = '';
		for (let i = 0; i < n; i++) out += Math.floor(this.next() * 16).toString(16);
		return out;
	}

	alnum(n: number): string {
		const chars = 'abcdefghijklmnopqrstuvwxyz0123456789';
		let out = '';
		for (let i = 0; i < n; i++) out += chars[Math.floor(this.next() * chars.length)];
		return out;
	}

	private word(): string {
		return Math.floor(this.next() * 4294967296)
			.toString(16)
			.padStart(8, '0');
	}

	/** A version-4 shaped UUID (four random 32-bit words, version and variant bits set). */
	uuid(): string {
		const s = this.word() + this.word() + this.word() + this.word();
		const variant = '89ab'[parseInt(s[16], 16) % 4];
		return `${s.slice(0, 8)}-${s.slice(8, 12)}-4${s.slice(13, 16)}-${variant}${s.slice(17, 20)}-${s.slice(20)}`;
	}

	/** Short opaque id like the service's non-UUID identifiers (12 characters). */
	shortId(): string {
		return this.alnum(12);
	}
}

export function slugify(text: string): string {
	const slug = text
		.toLowerCase()
		.normalize('NFKD')
		.replace(/[^a-z0-9]+/g, '-')
		.replace(/^-+|-+$/g, '')
		.slice(0, 60)
		.replace(/-+$/g, '');
	return slug || 'scenario';
}
