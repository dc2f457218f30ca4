import type { QaRecord } from '../../../schemas/qa-record';
import { incorrectStepNumber } from '../../../schemas/qa-record';
import { sha256Hex } from '../../ids';

/** JSON with object keys sorted, so equal records hash equally whatever their key order. */
export function canonicalJson(value: unknown): string {
	if (typeof value === 'string') return JSON.stringify(value);
	if (Array.isArray(value)) {
		let out = '[';
		for (let i = 0; i < value.length; i++) out += (i ? ',' : '') + canonicalJson(value[i]);
		return `${out}]`;
	}
	if (value && typeof value === 'object') {
		const object = value as Record<string, unknown>;
		const keys = Object.keys(object).sort();
		let out = '{';
		for (let i = 0; i < keys.length; i++) {
			out += `${i ? ',' : ''}${JSON.stringify(keys[i])}:${canonicalJson(object[keys[i]])}`;
		}
		return `${out}}`;
	}
	return JSON.stringify(value ?? null);
}

/** Hash of a record's whole content: tells an unchanged re-import from an update. */
export function contentHash(record: unknown): string {
	return sha256Hex(canonicalJson(record));
}

function normaliseQuestion(question: string): string {
	return question.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();
}

/**
 * Stable content key of an item: its type, source paragraph and normalised question. A paragraph
 * id alone is not unique (one passage yields several items), so the question is part of the key.
 */
export function itemKey(type: string, paragraphId: string | null, question: string): string {
	return sha256Hex(`${type}\u0000${paragraphId ?? ''}\u0000${normaliseQuestion(question)}`).slice(
		0,
		20
	);
}

function letterIndex(value: string, options: string[]): number {
	const v = value.trim().toUpperCase();
	if (v.length !== 1) return -1;
	const i = v.charCodeAt(0) - 65;
	return i >= 0 && i < options.length ? i : -1;
}

/** The typed, queryable columns of a version, derived from its record. */
export function typedFields(record: QaRecord) {
	const common = {
		type: record.type,
		question: record.question.trim(),
		sourceIsbn: record.source.isbn || null,
		sourcePage: record.source.page,
		paragraphId: record.source.paragraph_id,
		answer: null as string | null,
		answerList: null as string[] | null,
		options: null as string[] | null,
		correctAnswer: null as string | null,
		reasoning: null as string[] | null,
		falseAnswer: null as string | null,
		incorrectExplanation: null as string | null,
		incorrectStep: null as number | null,
		incorrectStepExplanation: null as string | null
	};
	switch (record.type) {
		case 'true_false': {
			const v = record.answer.trim().toLowerCase();
			return { ...common, answer: v === 'true' ? 'True' : 'False' };
		}
		case 'multiple_choice': {
			const i = record.options.findIndex((o) => o.trim() === record.correct_answer.trim());
			const idx = i >= 0 ? i : letterIndex(record.correct_answer, record.options);
			const correct = record.options[idx].trim();
			return { ...common, options: record.options, correctAnswer: correct, answer: correct };
		}
		case 'list': {
			const answers = record.answer.map((a) => {
				const i = letterIndex(a, record.options);
				return record.options.some((o) => o.trim() === a.trim()) || i < 0
					? a.trim()
					: record.options[i].trim();
			});
			return {
				...common,
				options: record.options,
				answerList: answers,
				answer: answers.join('; ')
			};
		}
		case 'short_answer':
			return { ...common, answer: record.answer.trim() };
		case 'multi_hop':
			return { ...common, answer: record.answer.trim(), reasoning: record.reasoning };
		case 'short_inverse': {
			// The reference answer of an inverse item is its gold explanation.
			const falseAnswer = (record.false_answer ?? record.answer).trim();
			return {
				...common,
				falseAnswer,
				incorrectExplanation: record.incorrect_explanation.trim(),
				answer: record.incorrect_explanation.trim()
			};
		}
		case 'multi_hop_inverse': {
			const lines = Array.isArray(record.incorrect_reasoning_step)
				? record.incorrect_reasoning_step
				: record.incorrect_reasoning_step.split('\n');
			const explanation = lines
				.map((l) => l.trim())
				.filter((l) => /^-?\s*explanation\s*:/i.test(l))
				.map((l) => l.replace(/^-?\s*explanation\s*:\s*/i, ''))
				.join(' ');
			return {
				...common,
				falseAnswer: record.answer.trim(),
				reasoning: record.reasoning,
				incorrectStep: incorrectStepNumber(record.incorrect_reasoning_step),
				incorrectStepExplanation: explanation || null,
				answer: lines.map((l) => l.trim().replace(/^-\s*/, '')).join('\n')
			};
		}
	}
}
