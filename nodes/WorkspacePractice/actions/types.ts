import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import type { SimplifiedKind } from '../../shared/output/simplified';
import type { OperationModule } from '../../shared/operations/operation';
import { withSimplify } from '../../shared/operations/withSimplify';

/** An entry of a resource's Operation pick-list; its value names a module in `operations`. */
type OperationOption<Op extends string> = INodePropertyOptions & { value: Op };

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
 * A resource, checked by the compiler: every operation the pick-list (`offers`, its default the
 * first unless `default` says) has its module and every module is offered, or `tsc` fails. `simplify`
 * names the operations whose records get the Simplify toggle, with their record kind.
 */
export function defineResource<const Value extends string, const Op extends string>(resource: {
	option: INodePropertyOptions & { value: Value };
	offers: Array<OperationOption<Op>>;
	default?: NoInfer<Op>;
	operations: Record<NoInfer<Op>, OperationModule>;
	simplify?: Partial<Record<NoInfer<Op>, SimplifiedKind>>;
}): ResourceModule<Op, Value> {
	const { option, offers, simplify = {} } = resource;
	const operations = { ...resource.operations };
	for (const [operation, kind] of Object.entries(simplify) as Array<
		[Op, SimplifiedKind | undefined]
	>) {
		if (kind)
			operations[operation] = withSimplify(option.value, operation, operations[operation], kind);
	}
	const operation = {
		displayName: 'Operation',
		name: 'operation',
		type: 'options' as const,
		noDataExpression: true,
		displayOptions: { show: { resource: [option.value] } },
		options: offers,
		default: resource.default ?? offers[0].value,
	};
	return { option, operation, operations };
}

/** The registry's keys are the resources' values: a key that is not its module's value fails `tsc`. */
export function keyedByValue<T extends Record<string, ResourceModule>>(
	registry: T & { [K in keyof T]: { option: { value: K } } },
): T {
	return registry;
}
