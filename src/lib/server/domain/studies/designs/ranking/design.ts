// The ranking design's plug into the study engine (designs/registry.ts): its settings (ties) live
// on the study itself, so it adds nothing at creation or opening.
import type { StudyDesignPlug } from '../plug';
import { rankingStudyBattles } from './battles';
import { rankingLabels } from './labels';

export const rankingDesign: StudyDesignPlug = {
	labels: rankingLabels,
	battles: rankingStudyBattles,
	noun: 'ranking',
	screenPath: (publicId) => `/rank/q/${publicId}`
};
