import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import type { SimplifiedKind } from '../../shared/output/simplified';
import type { OperationModule } from '../../shared/operations/operation';
import { withSimplify } from '../../shared/operations/withSimplify';

/** An entry of a resource's Operation pick-list; its value names a module in `operations`. */
export interface OperationOption<Op extends string> extends INodePropertyOptions {
	value: Op;
}

export interface ResourceModule<Op extends string = string, Value extends string = string> {
	/** The entry in the Resource pick-list. */
	option: INodePropertyOptions & { value: Value };
	/** The Operation pick-list shown for this resource. */
	operation: Omit<INodeProperties, 'options' | 'default'> & {
		options: Array<OperationOption<Op>>;
		default: Op;
	};
	operations: Record<Op, OperationModule>;
}

/**
 * A resource, checked by the compiler: every operation the pick-list offers has its module, every
 * module is offered, and the default is one of them. A mismatch fails `tsc`, not a run. `simplify`
 * names the operations whose records get the Simplify toggle, with their record kind
 * (nodes/shared/output/simplified.ts); the toggle is added here, so operation files stay as they are.
 */
export function defineResource<const Value extends string, const Op extends string>(resource: {
	option: INodePropertyOptions & { value: Value };
	operation: Omit<INodeProperties, 'options' | 'default'> & {
		options: Array<OperationOption<Op>>;
		default: NoInfer<Op>;
	};
	operations: Record<NoInfer<Op>, OperationModule>;
	simplify?: Partial<Record<NoInfer<Op>, SimplifiedKind>>;
}): ResourceModule<Op, Value> {
	const { simplify = {}, ...rest } = resource;
	const operations = { ...rest.operations };
	for (const [operation, kind] of Object.entries(simplify) as Array<
		[Op, SimplifiedKind | undefined]
	>) {
		if (kind)
			operations[operation] = withSimplify(
				rest.option.value,
				operation,
				operations[operation],
				kind,
			);
	}
	return { ...rest, operations };
}

/** The registry's keys are the resources' values: a key that is not its module's value fails `tsc`. */
export function keyedByValue<T extends Record<string, ResourceModule>>(
	registry: T & { [K in keyof T]: { option: { value: K } } },
): T {
	return registry;
}
