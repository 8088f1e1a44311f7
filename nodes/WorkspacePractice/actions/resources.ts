import type { ResourceModule } from './types';
import { member } from './member/member.resource';
import { workspace } from './workspace/workspace.resource';

/**
 * Every resource of the node, keyed by its `resource` value. The Resource pick-list, the form and the
 * router all come from here: adding a resource is one line.
 */
export const resources: Record<string, ResourceModule> = {
	member,
	workspace,
};
