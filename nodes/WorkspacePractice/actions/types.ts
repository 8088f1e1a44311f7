import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import type { OperationModule } from '../../shared/operations/operation';

/** An entry of a resource's Operation pick-list; its value names a module in `operations`. */
export interface OperationOption<Op extends string> extends INodePropertyOptions {
	value: Op;
}

export interface ResourceModule<Op extends string = string, Value extends string = string> {
	/** The entry in the Resource pick-list. */
	option: INodePropertyOptions & { value: Value };
	/** The Operation pick-list shown for this resource. */
	operation: Omit<INodeProperties, 'options' | 'default'> & { options: Array<OperationOption<Op>>; default: Op };
	operations: Record<Op, OperationModule>;
}

/**
 * A resource, checked by the compiler: every operation the pick-list offers has its module, every
 * module is offered, and the default is one of them. A mismatch fails `tsc`, not a run.
 */
export function defineResource<const Value extends string, const Op extends string>(resource: {
	option: INodePropertyOptions & { value: Value };
	operation: Omit<INodeProperties, 'options' | 'default'> & { options: Array<OperationOption<Op>>; default: NoInfer<Op> };
	operations: Record<NoInfer<Op>, OperationModule>;
}): ResourceModule<Op, Value> {
	return resource;
}

/** The registry's keys are the resources' values: a key that is not its module's value fails `tsc`. */
export function keyedByValue<T extends Record<string, ResourceModule>>(registry: T & { [K in keyof T]: { option: { value: K } } }): T {
	return registry;
}
