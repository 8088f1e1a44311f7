/** The demo speaks the editor's words (issue 41, point 9). */
import { eventLabel, pageStateLabel, rankLabel, scenarioLabel } from '../../scripts/demoWords';

test('events by the names the trigger shows, not the internal values', () => {
	expect(eventLabel('sessionScored')).toBe('Session Scored');
	expect(eventLabel('tierChanged')).toBe('Tier Changed');
	expect(eventLabel('pageCreated')).toBe('Page Created');
	expect(eventLabel('assignmentPastDue')).toBe('Assignment Past Due');
});

test('a scenario name cut from a longer prompt ends in "…"; a whole one is left alone', () => {
	const prompt = 'Cold call to a hospital procurement lead who already has a vendor';
	expect(scenarioLabel('Cold call to a hospital procurement lead who', [prompt])).toBe(
		'Cold call to a hospital procurement lead who…',
	);
	expect(scenarioLabel('Cold call', ['cold call'])).toBe('Cold call');
	expect(scenarioLabel('Discovery with a CFO', [prompt])).toBe('Discovery with a CFO');
});

test('a draft page and a rank said in words', () => {
	expect(pageStateLabel('draft', undefined)).toBe('draft, not published yet');
	expect(pageStateLabel('published', 1)).toBe('published, version 1');
	expect(rankLabel('unranked')).toBe('below every rank ("unranked")');
	expect(rankLabel('gold')).toBe('rank gold');
});
