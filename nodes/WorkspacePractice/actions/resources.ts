import { keyedByValue } from './types';
import { assignment } from './assignment/assignment.resource';
import { collection } from './collection/collection.resource';
import { context } from './context/context.resource';
import { group } from './group/group.resource';
import { knowledgeHubFolder } from './knowledgeHubFolder/knowledgeHubFolder.resource';
import { knowledgeHubPage } from './knowledgeHubPage/knowledgeHubPage.resource';
import { knowledgeHubSource } from './knowledgeHubSource/knowledgeHubSource.resource';
import { member } from './member/member.resource';
import { scenario } from './scenario/scenario.resource';
import { scenarioJob } from './scenarioJob/scenarioJob.resource';
import { session } from './session/session.resource';
import { skill } from './skill/skill.resource';
import { studioSession } from './studioSession/studioSession.resource';
import { workspace } from './workspace/workspace.resource';

/** Every resource, keyed by its value: the Resource pick-list, the form and the router read it. */
export const resources = keyedByValue({
	assignment,
	collection,
	context,
	group,
	knowledgeHubFolder,
	knowledgeHubPage,
	knowledgeHubSource,
	member,
	scenario,
	scenarioJob,
	session,
	skill,
	studioSession,
	workspace,
});
