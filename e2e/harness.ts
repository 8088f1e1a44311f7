/**
 * The runner's bookkeeping: each checked step prints one line; a failure names the step, says why and
 * shows the tail of n8n's log, then the run goes on to the next step.
 */
export interface StepOutcome {
	name: string;
	ok: boolean;
	skipped?: boolean;
	ms: number;
	detail?: string;
}

export class Report {
	readonly outcomes: StepOutcome[] = [];

	constructor(
		private readonly prefix: string,
		/** Shown after a failure: the tail of n8n's logs. */
		private readonly logTail: () => string,
	) {}

	/** Runs one step; `fn` returns a short summary of what it checked. Never throws. */
	async step(name: string, fn: () => Promise<string | void>): Promise<boolean> {
		const started = Date.now();
		const label = `${this.prefix} ${name}`;
		try {
			const detail = (await fn()) ?? '';
			const ms = Date.now() - started;
			this.outcomes.push({ name: label, ok: true, ms, detail });
			console.log(`PASS ${label}${detail ? ` — ${detail}` : ''} (${ms} ms)`);
			return true;
		} catch (error) {
			const ms = Date.now() - started;
			const message = error instanceof Error ? error.message : String(error);
			this.outcomes.push({ name: label, ok: false, ms, detail: message });
			console.log(`FAIL ${label} (${ms} ms)\n     ${message.split('\n').join('\n     ')}`);
			console.log(indent(this.logTail()));
			return false;
		}
	}

	skip(name: string, why: string): void {
		this.outcomes.push({
			name: `${this.prefix} ${name}`,
			ok: true,
			skipped: true,
			ms: 0,
			detail: why,
		});
		console.log(`SKIP ${this.prefix} ${name} — ${why}`);
	}

	get failed(): number {
		return this.outcomes.filter((o) => !o.ok).length;
	}

	get passed(): number {
		return this.outcomes.filter((o) => o.ok && !o.skipped).length;
	}
}

function indent(text: string): string {
	return text
		.split('\n')
		.map((l) => `     | ${l}`)
		.join('\n');
}

export class CheckError extends Error {}

export function expect(condition: unknown, message: string): asserts condition {
	if (!condition) throw new CheckError(message);
}

export function expectEqual<T>(actual: T, expected: T, what: string): void {
	if (JSON.stringify(actual) !== JSON.stringify(expected)) {
		throw new CheckError(
			`${what}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`,
		);
	}
}

export async function waitFor<T>(
	what: string,
	probe: () => Promise<T | undefined | false>,
	{ timeoutMs = 30000, intervalMs = 300 } = {},
): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	let last: unknown;
	for (;;) {
		try {
			const value = await probe();
			if (value !== undefined && value !== false) return value;
		} catch (error) {
			last = error;
		}
		if (Date.now() > deadline) {
			const why = last instanceof Error ? ` (last error: ${last.message})` : '';
			throw new CheckError(`timed out after ${timeoutMs} ms waiting for ${what}${why}`);
		}
		await new Promise((r) => setTimeout(r, intervalMs));
	}
}

export const sleepMs = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
