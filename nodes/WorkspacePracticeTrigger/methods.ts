import { searchFolders } from '../shared/methods/listSearch.knowledgeHub';
import { searchSkills } from '../shared/methods/listSearch.skill';
import { getMemberIds } from '../shared/methods/loadOptions';

/** The trigger's pickers: the same searches as the action node's Folder, Skill and Owner fields. */
export const listSearch = { searchFolders, searchSkills };
export const loadOptions = { getMemberIds };
