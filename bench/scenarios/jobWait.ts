/** Item 3: job wait (filled in once Scenario Job → Create's wait modes exist). */
import { config } from '../config';
import type { JobWaitFigures } from '../results';

export async function benchJobWait(): Promise<JobWaitFigures> {
	return {
		measured: false,
		jobMinutes: config.jobDurationMs / 60_000,
		timeScale: config.jobTimeScale,
		callbackCalls: null,
		pollingCalls: null,
		naiveCalls: null,
		note: 'not measured yet',
	};
}
