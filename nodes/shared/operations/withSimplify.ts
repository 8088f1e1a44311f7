import type { SimplifiedKind } from '../output/simplified';
import { simplifyField, simplifyRecord } from '../output/simplified';
import type { OperationModule } from './operation';
import { forOperation } from './operation';

/**
 * The operation with n8n's Simplify toggle: the field last in its form (shown for this resource and
 * operation only) and the record kind's subset for the router to apply. The operation's own code is
 * unchanged, so an operation file never reads Simplify itself.
 */
export function withSimplify(
	resource: string,
	operation: string,
	module: OperationModule,
	kind: SimplifiedKind,
): OperationModule {
	return {
		...module,
		description: [...module.description, ...forOperation(resource, operation, [simplifyField])],
		simplify: (record) => simplifyRecord(kind, record),
	};
}
