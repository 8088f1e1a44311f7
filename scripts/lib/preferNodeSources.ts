/**
 * Lets tsx run code that imports our node classes from source. Those imports name files like
 * `WorkspacePractice.node`; Node's resolver tries `.js` then `.json` before tsx gets to `.ts`, so
 * it would load the node's codex file (`WorkspacePractice.node.json`) instead of its class. (Jest
 * avoids this by listing `ts` first among its module extensions.) Import this module first.
 */
import Module from 'node:module';

type Resolve = (request: string, parent: unknown, ...rest: unknown[]) => string;
// `_resolveFilename` is Node's internal resolver hook; it is not in @types/node.
const internals = Module as unknown as { _resolveFilename: Resolve };
const original = internals._resolveFilename;

internals._resolveFilename = function (request, parent, ...rest) {
	if (request.startsWith('.') && /\.(node|credentials)$/.test(request)) {
		try {
			return original.call(this, `${request}.ts`, parent, ...rest);
		} catch {
			// no TypeScript source: fall back to Node's own resolution
		}
	}
	return original.call(this, request, parent, ...rest);
};
