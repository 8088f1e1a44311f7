/** Job-completion webhooks: real HTTP POSTs, each one recorded for the tests. */
import type { ScenarioJob } from './schemas';

export interface CallbackDelivery {
	jobId: string;
	url: string;
	/** Job status carried by this delivery. */
	jobStatus: ScenarioJob['status'];
	/** Headers sent (callback_headers plus content-type). */
	headers: Record<string, string>;
	body: ScenarioJob;
	/** HTTP status the receiver answered; null when the request failed. */
	status: number | null;
	error?: string;
	/** 1 for the first delivery of a job, 2+ for redeliveries. */
	attempt: number;
	/** Simulator clock time of sending, ISO. */
	at: string;
}

export class CallbackDispatcher {
	readonly deliveries: CallbackDelivery[] = [];
	private readonly inFlight = new Set<Promise<CallbackDelivery>>();

	deliver(
		jobId: string,
		url: string,
		extraHeaders: Record<string, string>,
		body: ScenarioJob,
		at: string,
	): Promise<CallbackDelivery> {
		const attempt =
			this.deliveries.filter((d) => d.jobId === jobId).length + this.pendingFor(jobId) + 1;
		const headers: Record<string, string> = { 'content-type': 'application/json', ...extraHeaders };
		const p = this.send(url, headers, body).then((result) => {
			const record: CallbackDelivery = {
				jobId,
				url,
				jobStatus: body.status,
				headers,
				body,
				attempt,
				at,
				...result,
			};
			this.deliveries.push(record);
			return record;
		});
		this.track(jobId, p);
		return p;
	}

	/** Resolves once every delivery started so far has finished. */
	async idle(): Promise<void> {
		while (this.inFlight.size) await Promise.allSettled([...this.inFlight]);
	}

	clear(): void {
		this.deliveries.length = 0;
	}

	private readonly pendingJobs = new Map<string, number>();
	private pendingFor(jobId: string): number {
		return this.pendingJobs.get(jobId) ?? 0;
	}
	private track(jobId: string, p: Promise<CallbackDelivery>): void {
		this.pendingJobs.set(jobId, this.pendingFor(jobId) + 1);
		this.inFlight.add(p);
		void p.finally(() => {
			this.inFlight.delete(p);
			this.pendingJobs.set(jobId, this.pendingFor(jobId) - 1);
		});
	}

	private async send(
		url: string,
		headers: Record<string, string>,
		body: ScenarioJob,
	): Promise<{ status: number | null; error?: string }> {
		try {
			const res = await fetch(url, {
				method: 'POST',
				headers,
				body: JSON.stringify(body),
				signal: AbortSignal.timeout(10_000),
			});
			await res.arrayBuffer(); // drain so the socket is released
			return { status: res.status };
		} catch (err) {
			return { status: null, error: err instanceof Error ? err.message : String(err) };
		}
	}
}
