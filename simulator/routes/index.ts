/** All API routes, one module per resource. */
import type { Engine } from '../engine';
import { Router } from '../http';
import { registerScenarios } from './scenarios';
import { registerStudio } from './studio';
import { registerWorkspace } from './workspace';

export function buildRouter(engine: Engine): Router {
	const router = new Router();
	registerWorkspace(router, engine);
	registerScenarios(router, engine);
	registerStudio(router, engine);
	return router;
}
