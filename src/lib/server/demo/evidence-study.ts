// The demo's evidence study: three clinical questions (BioGen 2024 topics), seven abstracts and
// two runs in the BioGen 2024 run format (evidence-content.ts), imported through the same
// functions as the imports page, then an open study (per assertion, k = 2) where the demo
// physicians have assessed most answers, so the figures and agreement show at first start and
// one answer is left for whoever signs in. Every judgement is fixed by its key.
import type { Db } from '../db/client';
import { sha256Hex } from '../ids';
import type { EvidenceRelation, EvidenceRelevance } from '../../constants';
import { importDocuments } from '../domain/documents';
import { importQuestions, importRuns } from '../domain/question-sets';
import {
	changeStudyState,
	claimNext,
	createStudy,
	evidenceScreen,
	saveEvidenceStep,
	submitEvidence,
	type ClaimResult,
	type EvidenceScreen
} from '../domain/studies';
import { DEMO_ABSTRACTS, DEMO_RUNS, DEMO_TOPICS } from './evidence-content';

export const DEMO_EVIDENCE_STUDY = 'Demo evidence study: answers checked against their citations';
export const DEMO_EVIDENCE_SET = 'Demo clinical questions (BioGen style)';
const DEMO_ACTOR = { userId: null, label: 'demo seed' };
/** Answers the demo physicians assess, of 6 answers × k = 2: one is left open. */
const DEMO_ASSESSMENTS = 11;

/** A number in [0, 1) fixed by its key. */
function unit(...key: (string | number)[]): number {
	return parseInt(sha256Hex(key.join('|')).slice(0, 12), 16) / 2 ** 48;
}

const RELATIONS: EvidenceRelation[] = [
	'supports',
	'supports',
	'partially_supports',
	'neutral',
	'contradicts',
	'not_relevant'
];
const RELEVANCES: EvidenceRelevance[] = [
	'required',
	'required',
	'borderline',
	'unnecessary',
	'inappropriate'
];

/**
 * A demo physician's assessment of one answer: it answers the question unless it opens by
 * telling everyone to start a drug; each sentence interpretable unless it speaks of the speaker;
 * one assertion per sentence (two for a sentence with a comma), and for each cited document a
 * relation (with one or two evidence sentences when it supports or contradicts) and a relevance,
 * drawn by key so two physicians mostly but not always agree.
 */
async function assess(db: Db, physician: string, screen: EvidenceScreen): Promise<void> {
	const publicId = screen.view.assignment.publicId;
	const answer = screen.sentences.map((s) => s.text).join(' ');
	const answers = !/^All adults/.test(answer);
	await saveEvidenceStep(db, physician, publicId, { answers }, { timeOnTaskMs: 20_000 });
	if (answers)
		for (const s of screen.sentences) {
			const interpretable = !/language model/.test(s.text);
			const cut = s.words.findIndex((w) => w.endsWith(','));
			const spans =
				cut > 0 && cut < s.words.length - 1
					? [
							[0, cut + 1],
							[cut + 1, s.words.length]
						]
					: [[0, s.words.length]];
			const key = (x: string, i = 0) => unit(physician.slice(0, 2), publicId, s.position, x, i);
			await saveEvidenceStep(
				db,
				physician,
				publicId,
				{
					position: s.position,
					interpretable,
					assertions: interpretable
						? spans.map(([start, end], i) => ({
								start,
								end,
								relevance:
									RELEVANCES[
										Math.floor(unit(answer, s.position, i) * 3 + key('r', i) * 2) %
											RELEVANCES.length
									],
								relations: s.citations
									.filter((c) => c.available)
									.map((c) => {
										const relation =
											RELATIONS[
												Math.floor(unit(c.pmid, s.text) * 4 + key(c.pmid, i) * 2) % RELATIONS.length
											];
										const n = screen.documents[c.pmid].sentences.length;
										const evidence = ['supports', 'partially_supports', 'contradicts'].includes(
											relation
										)
											? [
													...new Set([
														1 + Math.floor(unit(c.pmid, s.position) * n),
														1 + Math.floor(key('e', i) * n)
													])
												]
											: [];
										return { pmid: c.pmid, relation, evidence };
									})
							}))
						: []
				},
				{ timeOnTaskMs: 30_000 }
			);
		}
	await submitEvidence(db, physician, publicId, { timeOnTaskMs: 10_000 });
}

/** Imports the demo's BioGen content and opens its evidence study, most answers assessed. */
export async function seedEvidenceStudy(
	db: Db,
	judges: { organiser: string; physicians: readonly string[] }
): Promise<void> {
	await importDocuments(
		db,
		[
			{
				fileName: 'demo-abstracts.jsonl',
				text: DEMO_ABSTRACTS.map((d) => JSON.stringify(d)).join('\n')
			}
		],
		DEMO_ACTOR
	);
	const { setId } = await importQuestions(
		db,
		[{ fileName: 'demo-topics.json', text: JSON.stringify(DEMO_TOPICS) }],
		{ setName: DEMO_EVIDENCE_SET, actor: DEMO_ACTOR }
	);
	const runs = await importRuns(
		db,
		DEMO_RUNS.map((r) => ({ fileName: `${r.run_name}.json`, text: JSON.stringify(r) })),
		{ setId, missingDocuments: 'keep' },
		DEMO_ACTOR
	);
	const models = await db.query.model.findMany({
		where: (m, { inArray }) => inArray(m.name, runs.models)
	});
	const study = await createStudy(
		db,
		{
			name: DEMO_EVIDENCE_STUDY,
			design: 'evidence',
			questionSetId: setId,
			evidenceMode: 'assertion',
			instructions:
				'For each answer: does it answer the question? Then, sentence by sentence: is it interpretable; mark its assertions; for each cited abstract, does it support, partially support, contradict or say nothing about the assertion (select the evidence sentences); and is the assertion required, unnecessary, borderline or inappropriate?',
			selection: { types: [] },
			modelIds: models.map((m) => m.id),
			includeReference: false,
			ratersPerQuestion: 2
		},
		judges.organiser,
		{ confirm: true }
	);
	await changeStudyState(db, study.id, 'open', judges.organiser, { confirm: true });
	let done = 0;
	for (let round = 0; done < DEMO_ASSESSMENTS && round < 10; round++)
		for (const physician of judges.physicians) {
			if (done >= DEMO_ASSESSMENTS) break;
			const claim: ClaimResult = await claimNext(db, study.id, physician);
			if (claim.status !== 'assigned') continue;
			const screen = await evidenceScreen(db, physician, claim.publicId);
			if (!screen) continue;
			await assess(db, physician, screen);
			done++;
		}
}
