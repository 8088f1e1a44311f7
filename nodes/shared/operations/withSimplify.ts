import type { SimplifiedKind } from '../output/simplified';
import { simplifyField, simplifyRecord } from '../output/simplified';
import type { OperationModule } from './operation';
import { forOperation } from './operation';

/** The operation with the Simplify toggle last in its form; the router applies the kind's subset. */
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
