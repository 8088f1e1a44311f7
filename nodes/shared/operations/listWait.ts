import type { IExecuteFunctions } from 'n8n-workflow';

/**
 * Whether an operation's items wait together: more than one item, and every one By Polling. Then the
 * operation creates everything first and waits on all in one loop (its `executeAll`).
 */
export function everyItemPolls(
	ctx: IExecuteFunctions,
	readMode: (ctx: IExecuteFunctions, itemIndex: number) => string,
): boolean {
	const count = ctx.getInputData().length;
	if (count < 2) return false;
	for (let itemIndex = 0; itemIndex < count; itemIndex++) {
		try {
			if (readMode(ctx, itemIndex) !== 'poll') return false;
		} catch {
			// An expression that fails here fails again, as that item's error, in the per-item path.
			return false;
		}
	}
	return true;
}
