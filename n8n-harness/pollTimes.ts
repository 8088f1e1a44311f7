import { CronTime } from 'cron';
import type { TriggerTime } from 'n8n-workflow';
import { toCronExpression } from 'n8n-workflow';

/**
 * When n8n polls a trigger for its Poll Times: each entry becomes a cron expression (n8n-workflow's
 * `toCronExpression`, with its random second) run in the workflow's time zone, as n8n-core's
 * scheduled task manager runs it (the `cron` package). Returns the instants in [from, to), sorted; two
 * entries firing in one minute are two polls, as in n8n.
 */
export function pollTimes(
	entries: TriggerTime[],
	timeZone: string,
	from: number,
	to: number,
): number[] {
	const times: number[] = [];
	for (const entry of entries) {
		const cron = new CronTime(toCronExpression(entry), timeZone);
		let at = from - 1;
		for (;;) {
			at = cron.getNextDateFrom(new Date(at), timeZone).toMillis();
			if (at >= to) break;
			times.push(at);
		}
	}
	return times.sort((a, b) => a - b);
}
