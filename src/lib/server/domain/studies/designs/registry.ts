// The engine's registry of study designs: what each design adds to the shared lifecycle. A new
// design is a folder beside these (its schema, domain module, statistics and export columns) plus
// one entry here; the engine never names a design anywhere else.
import type { StudyDesign } from '../../../../constants';
import type { StudyDesignPlug } from './plug';
import { rankingDesign } from './ranking/design';
import { pairwiseDesign } from './pairwise/design';
import { rubricDesign } from './rubric/design';
import { evidenceDesign } from './evidence/design';

export type { DesignInput, JudgementLabel, StudyDesignPlug } from './plug';

export const DESIGNS: Record<StudyDesign, StudyDesignPlug> = {
	ranking: rankingDesign,
	rubric: rubricDesign,
	pairwise: pairwiseDesign,
	evidence: evidenceDesign
};
