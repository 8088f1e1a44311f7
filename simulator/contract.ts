/**
 * Compile-time check that the simulator's zod schemas and the nodes' contract types
 * (nodes/shared/contract.ts) describe the same service: a schema that drifts from the contract fails
 * `npm run typecheck`. Types only; nothing here runs.
 */
import type { z } from 'zod';

import type {
	ErrorEnvelope,
	FolderLabel,
	JobStatus,
	ListEnvelope,
	Pagination,
} from '../nodes/shared/contract';
import type {
	errorEnvelopeSchema,
	folderRefSchema,
	jobStatusSchema,
	pageListSchema,
	pageSchema,
	paginationSchema,
} from './schemas';

/** True when each type is assignable to the other. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Holds<T extends true> = T;

export type ContractChecks = [
	Holds<Same<z.infer<typeof paginationSchema>, Pagination>>,
	Holds<Same<z.infer<typeof pageListSchema>, ListEnvelope<z.infer<typeof pageSchema>>>>,
	Holds<Same<z.infer<typeof errorEnvelopeSchema>, ErrorEnvelope>>,
	Holds<Same<z.infer<typeof jobStatusSchema>, JobStatus>>,
	Holds<Same<Pick<z.infer<typeof folderRefSchema>, keyof FolderLabel>, FolderLabel>>,
];
