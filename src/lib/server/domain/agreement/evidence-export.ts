// An evidence study's tables on the agreement page and in its bundle: the TREC BioGen figures per
// run with their intervals, agreement between assessors, and the official assessment file the
// figures come from (`cliniq stats evidence` reads it).
import type { Db } from '../../db/client';
import { exportEvidenceOfficial, type EvidenceReport } from '../studies';
import { PERCENT_FIGURES } from '../../../stats/biogen';
import { intervalCells, type Table } from './tables';

const FIGURES = [
	'accuracy',
	'acceptable_answers',
	...PERCENT_FIGURES.filter((f) => f !== 'accuracy')
] as const;

/** The evidence tables: `evidence_figures` (one row per run and figure) and `evidence_agreement`. */
export function evidenceTables(r: EvidenceReport): Record<string, Table> {
	const figureRows = Object.entries(r.figures.runs).flatMap(([run, f]) =>
		FIGURES.map((figure) => {
			const interval = figure === 'acceptable_answers' ? null : r.intervals[run]?.[figure];
			const cells = interval ? intervalCells(interval) : {};
			return {
				run,
				figure,
				value: f[figure],
				low: null,
				high: null,
				level: null,
				valid: null,
				resamples: null,
				interval_reason: null,
				...cells
			};
		})
	);
	const a = r.agreement;
	return {
		evidence_figures: {
			columns: [
				'run',
				'figure',
				'value',
				'low',
				'high',
				'level',
				'valid',
				'resamples',
				'interval_reason'
			],
			rows: figureRows
		},
		evidence_agreement: {
			columns: ['statistic', 'units', 'value', 'reason'],
			rows: [
				['answer_accurate_alpha', a.answerAccurate],
				['interpretable_alpha', a.interpretable],
				['sentence_relevance_alpha', a.relevance],
				['evidence_relation_alpha', a.relation]
			]
				.map(([statistic, s]) => {
					const stat = s as EvidenceReport['agreement']['relation'];
					return { statistic, units: stat.units, value: stat.value, reason: stat.reason ?? null };
				})
				.concat({
					statistic: 'span_token_f1_mean',
					units: a.spans.n,
					value: a.spans.value,
					reason: a.spans.reason ?? null
				})
		}
	};
}

/** The raw file of an evidence study's figures: its official BioGen assessments. */
export async function rawEvidenceFiles(db: Db, studyId: number) {
	return [
		{
			name: 'biogen_assessments.json',
			content: JSON.stringify(await exportEvidenceOfficial(db, studyId), null, 1)
		}
	];
}
