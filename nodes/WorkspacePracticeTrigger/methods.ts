import { searchFolders } from '../shared/methods/listSearch.knowledgeHub';
import { searchMemberIds } from '../shared/methods/listSearch.member';
import { searchSkills } from '../shared/methods/listSearch.skill';

/** The trigger's pickers: the same searches as the action node's Folder, Skill and Owner fields. */
export const listSearch = { searchFolders, searchMemberIds, searchSkills };
