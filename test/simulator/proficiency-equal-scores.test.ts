/**
 * Issue 57: equal scores average to themselves. Three sessions scored 75 are proficient (75 is the
 * tier's floor) at every instant; the weighted mean Σw·75 / Σw came out 74.99999999999999 at some
 * instants (developing) and 75.00000000000001 at others, so a member whose practice never changed was
 * read as changing tier.
 */
import { proficiency } from '../../simulator/state/analytics';
import type { ObservationRec } from '../../simulator/state/types';

const DAY = 86_400_000;
const START = Date.UTC(2026, 0, 1);

const sessions = (score: number, daysAgo: number[]): ObservationRec[] =>
	daysAgo.map((d) => ({
		userId: 'u1',
		skillId: 's1',
		score,
		at: START - d * DAY,
		kind: 'session',
	}));

test.each([75, 90, 50, 60.7, 0, 100])(
	'three sessions scored %p: exactly that score at every instant of a year',
	(score) => {
		// Ages whose weights made the old mean miss (0, 0 and 11.3 days among them).
		for (const spread of [11.3, 15.82, 35.03, 40.68, 1, 7, 29.9])
			for (let hours = 0; hours < 365 * 24; hours += 37) {
				const [row] = proficiency(sessions(score, [0, 0, spread]), START + hours * 3_600_000);
				expect(row.score).toBe(score);
			}
	},
);

test('three 75s are proficient, whatever the instant', () => {
	for (let hours = 0; hours < 2000; hours++) {
		const [row] = proficiency(sessions(75, [0, 0, 11.3]), START + hours * 3_600_000);
		expect(row.tier).toBe('proficient');
	}
});

test('unequal scores: the same weighted mean as before, within rounding', () => {
	const obs = [...sessions(40, [30]), ...sessions(98, [3, 1])];
	const asOf = START;
	const w = obs.map((o) => 0.5 ** ((asOf - o.at) / DAY / 30));
	const naive = obs.reduce((s, o, i) => s + w[i] * o.score, 0) / w.reduce((a, b) => a + b);
	expect(proficiency(obs, asOf)[0].score).toBeCloseTo(naive, 10);
});
