/** Time sources. Everything time-dependent in the simulator reads `clock.now()`. */

export interface Clock {
	now(): number;
}

/** Wall-clock time. */
export class RealClock implements Clock {
	now(): number {
		return Date.now();
	}
}

type Listener = () => void;

/**
 * A clock that only moves when told to. Listeners run after every move so the
 * simulator can advance jobs and sources (and fire callbacks) right away.
 */
export class ManualClock implements Clock {
	private current: number;
	private readonly listeners = new Set<Listener>();

	constructor(start: Date | number | string = '2026-03-16T12:00:00.000Z') {
		this.current = new Date(start).getTime();
		if (Number.isNaN(this.current)) throw new Error(`ManualClock: invalid start ${String(start)}`);
	}

	now(): number {
		return this.current;
	}

	advance(ms: number): void {
		if (!Number.isFinite(ms) || ms < 0)
			throw new Error(`ManualClock.advance: ms must be >= 0, got ${ms}`);
		this.current += ms;
		this.emit();
	}

	set(date: Date | number | string): void {
		const next = new Date(date).getTime();
		if (Number.isNaN(next)) throw new Error(`ManualClock.set: invalid date ${String(date)}`);
		this.current = next;
		this.emit();
	}

	/** Returns an unsubscribe function. */
	onChange(listener: Listener): () => void {
		this.listeners.add(listener);
		return () => this.listeners.delete(listener);
	}

	private emit(): void {
		for (const l of [...this.listeners]) l();
	}
}

export function isManualClock(clock: Clock): clock is ManualClock {
	return clock instanceof ManualClock;
}

export function iso(ms: number): string {
	return new Date(ms).toISOString();
}
