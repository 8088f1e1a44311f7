import type { INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

/**
 * Checks the shared validator does not have, failing the same way: field, rule and item named, no
 * request sent.
 */
function fail(node: INode, itemIndex: number, field: string, rule: string): never {
	throw new NodeOperationError(node, `${field}: ${rule}`, {
		itemIndex,
		description: `Item ${itemIndex + 1}: fix "${field}" and run again. No request was sent.`,
	});
}

/** One of a fixed set of values (expressions can produce anything). */
export function oneOf(node: INode, itemIndex: number, field: string, value: string, allowed: readonly string[]): string {
	if (!allowed.includes(value)) fail(node, itemIndex, field, `must be one of ${allowed.join(', ')}, got "${value}"`);
	return value;
}

/** A lower bound that must not exceed its upper bound (dates as ISO strings, or numbers). */
export function ordered(
	node: INode,
	itemIndex: number,
	field: string,
	low: string | number | undefined,
	high: string | number | undefined,
	rule: string,
): void {
	if (low === undefined || high === undefined) return;
	const a = typeof low === 'number' ? low : Date.parse(low);
	const b = typeof high === 'number' ? high : Date.parse(high);
	if (a > b) fail(node, itemIndex, field, rule);
}
