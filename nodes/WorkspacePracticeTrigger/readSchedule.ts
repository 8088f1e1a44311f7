import type { IDataObject, INodeProperties } from 'n8n-workflow';

import type { InputValidator } from '../shared/validate';
import type { WorkingHours } from './workingHours';
import { DEFAULT_WORKING_HOURS, readsPerDay } from './workingHours';

/**
 * The Read Schedule options both trigger families offer beside Minutes Between Reads, and
 * their reader: evenly (today's behaviour) or more often in working hours and rarely outside them.
 */

const WORKING = readsPerDay(DEFAULT_WORKING_HOURS, true);
const OTHER = readsPerDay(DEFAULT_WORKING_HOURS, false);

export const DEFAULT_WORKING_HOURS_TEXT = 'Mon-Fri 09:00-17:00';

export const readScheduleOptions: INodeProperties[] = [
	{
		displayName: 'Minutes in Working Hours',
		name: 'workingHoursMinutes',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: 1440, numberPrecision: 0 },
		default: 11,
		description:
			'Used with Read Schedule: More Often in Working Hours. Each read costs what a read costs with Evenly (see Minutes Between Reads): 8 working hours at 11 minutes are 44 reads, at 10 minutes 48.',
	},
	{
		displayName: 'Minutes Off Working Hours',
		name: 'offHoursMinutes',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: 1440, numberPrecision: 0 },
		default: 360,
		description:
			'Used with Read Schedule: More Often in Working Hours. At 360, an event at night or at the weekend arrives within 6 hours.',
	},
	{
		displayName: 'Read Schedule',
		name: 'readSchedule',
		type: 'options',
		options: [
			{
				name: 'Evenly',
				value: 'evenly',
				description: 'At most every Minutes Between Reads, day and night',
			},
			{
				name: 'More Often in Working Hours',
				value: 'workingHours',
				description: `Every Minutes in Working Hours (${DEFAULT_WORKING_HOURS.workingGapMinutes}) within Working Hours (${DEFAULT_WORKING_HOURS_TEXT}, the workflow's time zone), every Minutes Off Working Hours (${DEFAULT_WORKING_HOURS.offHoursGapMinutes}) otherwise: ${WORKING} reads a working day and ${OTHER} on other days at these defaults (Evenly at 30 minutes: 48 every day)`,
			},
		],
		default: 'evenly',
		description:
			'When the trigger reads. With More Often in Working Hours, events that happen in working hours arrive within minutes (a median of 5 at the defaults) for about the daily cost of reading every 30 minutes; Minutes Between Reads is then not used.',
	},
	{
		displayName: 'Working Hours',
		name: 'workingHours',
		type: 'string',
		default: DEFAULT_WORKING_HOURS_TEXT,
		placeholder: 'e.g. Mon-Fri 08:30-18:00',
		description:
			"Used with Read Schedule: More Often in Working Hours. Days (Mon-Fri, or a list such as Mon,Tue,Thu) and hours (HH:MM-HH:MM, 24-hour clock) in the workflow's time zone (Workflow Settings → Timezone).",
	},
];

const DAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];
const RULE =
	'days then hours, e.g. "Mon-Fri 09:00-17:00" or "Mon,Wed 08:30-12:00": days Mon to Sun, a range or a comma list; hours HH:MM-HH:MM on a 24-hour clock, end after start';

/** "Mon-Fri 09:00-17:00" → days and minutes, or undefined when it does not read. */
export function parseWorkingHours(
	text: string,
): Pick<WorkingHours, 'days' | 'startMinute' | 'endMinute'> | undefined {
	const match = /^\s*([a-z,\s-]+?)\s+(\d{1,2}):(\d{2})\s*-\s*(\d{1,2}):(\d{2})\s*$/i.exec(text);
	if (!match) return undefined;
	const days = new Set<number>();
	for (const part of match[1].split(',').map((p) => p.trim().toLowerCase())) {
		const [from, to = from] = part.split('-').map((d) => DAYS.indexOf(d.trim().slice(0, 3)));
		if (from < 0 || to < 0 || part.split('-').length > 2) return undefined;
		// A range may wrap the week (Sat-Mon).
		for (let day = from; ; day = (day + 1) % 7) {
			days.add(day + 1);
			if (day === to) break;
		}
	}
	const startMinute = Number(match[2]) * 60 + Number(match[3]);
	const endMinute = Number(match[4]) * 60 + Number(match[5]);
	if (Number(match[3]) > 59 || Number(match[5]) > 59 || endMinute > 1440) return undefined;
	if (endMinute <= startMinute) return undefined;
	return { days: [...days].sort(), startMinute, endMinute };
}

/**
 * The schedule a family's Options ask for, checked before any request: undefined for Evenly (Minimum
 * Minutes Between Reads applies).
 */
export function readScheduleOf(
	check: InputValidator,
	options: IDataObject,
): WorkingHours | undefined {
	const mode = String(options.readSchedule ?? 'evenly');
	check.oneOf('Options → Read Schedule', mode, ['evenly', 'workingHours']);
	if (mode !== 'workingHours') return undefined;
	const text = String(options.workingHours ?? DEFAULT_WORKING_HOURS_TEXT);
	const hours = parseWorkingHours(text);
	if (!hours) return check.fail('Options → Working Hours', `must be ${RULE}; got "${text}"`);
	return {
		...hours,
		workingGapMinutes: check.intRange(
			'Options → Minutes in Working Hours',
			options.workingHoursMinutes ?? DEFAULT_WORKING_HOURS.workingGapMinutes,
			1,
			1440,
		),
		offHoursGapMinutes: check.intRange(
			'Options → Minutes Off Working Hours',
			options.offHoursMinutes ?? DEFAULT_WORKING_HOURS.offHoursGapMinutes,
			1,
			1440,
		),
	};
}
