// The engine's registry of study designs: what each design adds to the shared lifecycle. A new
// design is a folder beside these (its schema, domain module, statistics and export columns) plus
// one entry here; the engine never names a design anywhere else.
import type { StudyDesign } from '../../../../constants';
import type { Tx } from '../../../db/client';
import type { Study } from '../../../db/schema';
import { rankingDesign } from './ranking/design';
import { rubricDesign } from './rubric/design';

/** The design-specific settings a study form sends (each design reads its own). */
export interface DesignInput {
	rubricId?: number;
}

/** What a design plugs into the engine. */
export interface StudyDesignPlug {
	/** Checks the design's settings and stores them, in the transaction creating the study. */
	onCreate?(tx: Tx, study: Study, input: DesignInput, actorId: string): Promise<void>;
	/** At the first opening, after the questions are frozen: freezes what the design needs. */
	onFirstOpen?(tx: Tx, study: Study): Promise<void>;
	/** The rater's screen of an assignment. */
	screenPath(publicId: string): string;
}

export const DESIGNS: Record<StudyDesign, StudyDesignPlug> = {
	ranking: rankingDesign,
	rubric: rubricDesign
};
