// What a study design plugs into the engine (the registry, ./registry.ts, lists one per design).
import type { SQL } from 'drizzle-orm';
import type { Db, Tx } from '../../../db/client';
import type { Study } from '../../../db/schema';
import type { EvidenceMode, Pairing } from '../../../../constants';
import type { Battle } from '../../../../stats/bradley-terry';

/** The design-specific settings a study form sends (each design reads its own). */
export interface DesignInput {
	/** Rubric studies: the rubric to score with; pairwise studies: the rubric whose aspects to ask about. */
	rubricId?: number;
	/** Pairwise studies: every pair per question, or a balanced sample. */
	pairing?: Pairing;
	/** Pairwise studies with a balanced sample: pairs per question. */
	pairsPerQuestion?: number;
	/** Pairwise studies: the seed of the balanced sample (drawn when not given). */
	pairSeed?: string;
	/** Evidence studies: relations and relevance per assertion or per sentence. */
	evidenceMode?: EvidenceMode;
}

/** One leaderboard's battles, e.g. `Rankings` or `Aspect REL (Relevance)`. */
export interface LabelledBattles {
	label: string;
	battles: Battle[];
}

/** What a design adds to the shared lifecycle. */
export interface StudyDesignPlug {
	/** Checks the design's settings and stores them, in the transaction creating the study. */
	onCreate?(tx: Tx, study: Study, input: DesignInput, actorId: string): Promise<void>;
	/** At the first opening, after the questions are frozen: freezes what the design needs. */
	onFirstOpen?(tx: Tx, study: Study): Promise<void>;
	/** What the design adds to the study's exported configuration (e.g. the frozen rubric). */
	configuration?(db: Db, studyId: number): Promise<Record<string, unknown>>;
	/**
	 * The study's judgements as pairwise battles (one list per leaderboard the design gives: a
	 * ranking one, a rubric one per aspect, a pairwise one), questions keyed across studies
	 * (`questionKey`), so designs can be compared on the same questions (../battles.ts).
	 */
	battles?(db: Db, studyId: number): Promise<LabelledBattles[]>;
	/**
	 * The study's submitted judgements as categorical labels in the design's key space (one row per
	 * assignment and key, e.g. `gpt-4o/tag` → `good`), for gold checks and rater quality
	 * (domain/quality/labels.ts). `where` filters `a` (assignment) and `q` (study_question).
	 */
	labels(db: Db, studyId: number, where: SQL): Promise<JudgementLabel[]>;
	/** What one judgement is called on progress pages (singular; plural adds an s). */
	noun: string;
	/** The rater's screen of an assignment. */
	screenPath(publicId: string): string;
}

/** One label of one submitted judgement (domain/quality/labels.ts). */
export interface JudgementLabel {
	assignmentId: number;
	questionId: number;
	raterId: string;
	submittedAt: Date;
	/** Milliseconds on the judgement, as the screen measured it (null when not measured). */
	timeOnTaskMs: number | null;
	key: string;
	label: string;
}
