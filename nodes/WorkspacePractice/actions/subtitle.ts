import { resourceOperationSubtitle } from '../../shared/subtitle';
import { resources } from './resources';

/** "<resource>:<operation>" → "Create: Scenario Job", for every operation the registry offers. */
export const SUBTITLES: Record<string, string> = Object.fromEntries(
	Object.values(resources).flatMap((module) =>
		module.operation.options.map((option) => [
			`${module.option.value}:${option.value}`,
			`${option.name}: ${module.option.name}`,
		]),
	),
);

export const subtitle = resourceOperationSubtitle(SUBTITLES);
