import { readJob } from '../../../shared/scenarioJob/job';
import { forOperation, type OperationModule } from '../../../shared/operations/operation';
import { jobIdField, readJobId } from './job.fields';

export const description = forOperation('scenarioJob', 'get', [jobIdField]);

export const execute: OperationModule['execute'] = async function (itemIndex) {
	return await readJob(this, readJobId(this, itemIndex), itemIndex);
};
