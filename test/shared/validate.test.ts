import type { INode } from 'n8n-workflow';

import { InputValidator, toList } from '../../nodes/shared/validate';

const node = { name: 'Workspace Practice' } as INode;
const v = new InputValidator(node, 2);

test('dates without a zone are UTC, with a zone are converted to UTC', () => {
	expect(v.dateTime('Start Date', '2026-03-01')).toBe('2026-03-01T00:00:00.000Z');
	expect(v.dateTime('Start Date', '2026-03-01T10:00')).toBe('2026-03-01T10:00:00.000Z');
	expect(v.dateTime('Start Date', '2026-03-01 10:00:05')).toBe('2026-03-01T10:00:05.000Z');
	expect(v.dateTime('Start Date', '2026-03-01T10:00:00+02:00')).toBe('2026-03-01T08:00:00.000Z');
	expect(v.dateTime('Start Date', new Date('2026-03-01T10:00:00Z'))).toBe('2026-03-01T10:00:00.000Z');
});

test.each([
	['email', 'User Email', 'not-an-email', /User Email: must be an e-mail address, got "not-an-email"/],
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
	expect((caught as { description: string }).description).toContain('Item 3');
});

test('maxLength and intRange state the bound', () => {
	expect(() => v.maxLength('Prompt', 'x'.repeat(10_001), 10_000)).toThrow('Prompt: must be at most 10,000 characters, got 10,001');
	expect(() => v.intRange('Limit', 0, 1, 100)).toThrow('Limit: must be a whole number from 1 to 100, got "0"');
	expect(v.intRange('Limit', '7', 1, 100)).toBe(7);
});

test('lists accept multi-select arrays and comma-separated text', () => {
	expect(toList(['a', ' b ', ''])).toEqual(['a', 'b']);
	expect(toList('a, b,,c')).toEqual(['a', 'b', 'c']);
	expect(toList(undefined)).toEqual([]);
});
