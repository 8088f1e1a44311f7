/** What every step of one suite run shares: the n8n under test, its API, the simulator, the report. */
import { join } from 'node:path';

import type { N8nApi } from '../scripts/n8n/api';
import type { N8nServer } from '../scripts/n8n/server';
import type { Fixtures, RunningSimulator } from '../simulator';
import type { Report } from './harness';
import type { CredentialRef } from '../scripts/n8n/workflows';

export interface SuiteContext {
	n8n: N8nServer;
	api: N8nApi;
	sim: RunningSimulator;
	fx: Fixtures;
	report: Report;
	/** The staged package folder (its dist/ is what n8n loaded). */
	packageDir: string;
	/** Node type names the packed package declares. */
	packageNodeTypes: string[];
	/** Set by the credential step; later steps need it. */
	credential?: CredentialRef;
	/** 1 or 2: a few n8n behaviours differ between majors (signed resume URLs). */
	major: 1 | 2;
	queueMode: boolean;
}

/**
 * The only folder the suite's n8n may read and write files in (N8N_RESTRICT_FILE_ACCESS_TO), inside its
 * user folder so it goes when the server stops (n8n's own default is ~/.n8n-files in the user's home).
 */
export const n8nFilesFolder = (userFolder: string): string => join(userFolder, 'files');

export function requireCredential(ctx: SuiteContext): CredentialRef {
	if (!ctx.credential) throw new Error('no credential: the credential step failed');
	return ctx.credential;
}

/** A unique webhook path per run, so a reused n8n never answers with an older workflow. */
let counter = 0;
export function uniquePath(prefix: string): string {
	counter += 1;
	return `${prefix}-${Date.now().toString(36)}-${counter}`;
}

/** Polls n8n has started for a workflow so far, read from its log. */
export function pollCount(ctx: SuiteContext, workflowName: string): number {
	// n8n 2.x logs "Poll trigger initiated…", 1.x "Polling trigger initiated…".
	const log = ctx.n8n.log('n8n');
	return (
		log.split(`Poll trigger initiated for workflow "${workflowName}"`).length -
		1 +
		(log.split(`Polling trigger initiated for workflow "${workflowName}"`).length - 1)
	);
}
