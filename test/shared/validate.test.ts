import type { INode } from 'n8n-workflow';

import { InputValidator } from '../../nodes/shared/validate';

const node = { name: 'Workspace Practice' } as INode;
const v = new InputValidator(node, 2);

test('dates without a zone are UTC, with a zone are converted to UTC', () => {
	expect(v.dateTime('Start Date', '2026-03-01')).toBe('2026-03-01T00:00:00.000Z');
	expect(v.dateTime('Start Date', '2026-03-01T10:00')).toBe('2026-03-01T10:00:00.000Z');
	expect(v.dateTime('Start Date', '2026-03-01 10:00:05')).toBe('2026-03-01T10:00:05.000Z');
	expect(v.dateTime('Start Date', '2026-03-01T10:00:00+02:00')).toBe('2026-03-01T08:00:00.000Z');
	expect(v.dateTime('Start Date', new Date('2026-03-01T10:00:00Z'))).toBe(
		'2026-03-01T10:00:00.000Z',
	);
});

describe('an upper bound given as a whole day covers that day (issue 14)', () => {
	test.each([
		['a date alone', '2026-11-23'],
		["n8n's date-time picker after a day is clicked (midnight, no zone)", '2026-11-23T00:00:00'],
		['midnight without seconds', '2026-11-23T00:00'],
		['midnight with a space and a zero fraction', '2026-11-23 00:00:00.000'],
	])('%s → 23:59:59 UTC of that day', (_, value) => {
		expect(v.dateTime('End Date', value, 'end')).toBe('2026-11-23T23:59:59.000Z');
	});

	test.each([
		[
			'midnight with a zone is that exact instant',
			'2026-11-23T00:00:00Z',
			'2026-11-23T00:00:00.000Z',
		],
		[
			'midnight with an offset is that exact instant',
			'2026-11-23T00:00:00+01:00',
			'2026-11-22T23:00:00.000Z',
		],
		['a time of day is kept', '2026-11-23T15:00:00', '2026-11-23T15:00:00.000Z'],
		['one second past midnight is kept', '2026-11-23T00:00:01', '2026-11-23T00:00:01.000Z'],
	])('%s', (_, value, wire) => {
		expect(v.dateTime('End Date', value, 'end')).toBe(wire);
	});

	test('a Date or a Luxon DateTime from an expression is an exact instant', () => {
		expect(v.dateTime('End Date', new Date('2026-11-23T00:00:00Z'), 'end')).toBe(
			'2026-11-23T00:00:00.000Z',
		);
		const luxonLike = { toISO: () => '2026-11-23T00:00:00.000+00:00' };
		expect(v.dateTime('End Date', luxonLike, 'end')).toBe('2026-11-23T00:00:00.000Z');
	});

	test('a lower bound (and an exact date-time) starts the day at its first second', () => {
		expect(v.dateTime('Start Date', '2026-11-23')).toBe('2026-11-23T00:00:00.000Z');
		expect(v.dateTime('Start Date', '2026-11-23T00:00:00')).toBe('2026-11-23T00:00:00.000Z');
	});

	test('an invalid day is still refused', () => {
		expect(() => v.dateTime('End Date', '2026-02-30', 'end')).toThrow(
			'End Date: must be an ISO 8601 date-time',
		);
		expect(() => v.dateTime('End Date', '2026-13-01T00:00:00', 'end')).toThrow(
			'End Date: must be an ISO 8601 date-time',
		);
	});
});

test.each([
	[
		'email',
		'User Email',
		'not-an-email',
		/User Email: must be an e-mail address, got "not-an-email"/,
	],
	['uuid', 'Page', '1234', /Page: must be a UUID/],
	['dateTime', 'Updated After', 'yesterday', /Updated After: must be an ISO 8601 date-time/],
	['required', 'Prompt', '   ', /Prompt: is required and cannot be empty/],
] as const)('%s names the field and the rule', (method, field, value, message) => {
	let caught: unknown;
	try {
		(v[method] as (f: string, x: unknown) => unknown).call(v, field, value);
	} catch (error) {
		caught = error;
	}
	expect((caught as Error).message).toMatch(message);
	expect((caught as { context: { itemIndex: number } }).context.itemIndex).toBe(2);
	expect((caught as { description: string }).description).toContain('Item 2:');
});

test('maxLength and intRange state the bound', () => {
	expect(() => v.maxLength('Prompt', 'x'.repeat(10_001), 10_000)).toThrow(
		'Prompt: must be at most 10,000 characters, got 10,001',
	);
	expect(() => v.intRange('Limit', 0, 1, 100)).toThrow(
		'Limit: must be a whole number from 1 to 100, got "0"',
	);
	expect(v.intRange('Limit', '7', 1, 100)).toBe(7);
});

test('lists accept multi-select arrays and comma-separated text', () => {
	expect(v.list('User IDs', ['a', ' b ', ''])).toEqual(['a', 'b']);
	expect(v.list('User IDs', 'a, b,,c')).toEqual(['a', 'b', 'c']);
	expect(v.list('User IDs', undefined)).toEqual([]);
});

test('issue 11 audit: what an expression returns is refused when it is not what the field holds', () => {
	// An object or list in a text field would go out as "[object Object]".
	expect(() => v.required('Prompt', { deal: 'Acme' })).toThrow(
		'Prompt: must be text, but the expression returned an object ({"deal":"Acme"})',
	);
	expect(() => v.text('Context', ['a'])).toThrow(
		'Context: must be text, but the expression returned a list (1 entries)',
	);
	expect(v.text('Context', 42)).toBe('42');
	// An object in a list filter used to be dropped, returning unfiltered rows.
	expect(() => v.uuidList('User IDs', { id: 'x' })).toThrow(
		'User IDs: must be a list or comma-separated text',
	);
	expect(() => v.list('Tags', [{ a: 1 }])).toThrow('Tags (each entry): must be text');
	// Limit: 0, negative, fractional or not a number used to go out as page_size.
	for (const bad of [0, -3, 2.5, Number.NaN, 'ten', '']) {
		expect(() => v.positiveInt('Limit', bad)).toThrow(
			/^Limit: must be a whole number of 1 or more/,
		);
	}
	expect(v.positiveInt('Limit', '7')).toBe(7);
});
