/** All API routes, one module per resource. */
import type { Engine } from '../engine';
import { Router } from '../http';
import { registerAnalytics } from './analytics';
import { registerFolders } from './kb-folders';
import { registerPages } from './kb-pages';
import { registerSources } from './kb-sources';
import { registerScenarios } from './scenarios';
import { registerSessions } from './sessions';
import { registerSkills } from './skills';
import { registerStudio } from './studio';
import { registerWorkspace } from './workspace';

export function buildRouter(engine: Engine): Router {
	const router = new Router();
	registerWorkspace(router, engine);
	registerScenarios(router, engine);
	registerAnalytics(router, engine);
	registerStudio(router, engine);
	registerSessions(router, engine);
	registerSkills(router, engine);
	registerFolders(router, engine);
	registerPages(router, engine);
	registerSources(router, engine);
	return router;
}
