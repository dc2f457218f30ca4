import { relations } from 'drizzle-orm';
import {
	dataset,
	importRecord,
	model,
	passage,
	qaItem,
	qaItemVersion,
	response
} from './schema/content';
import {
	adjudication,
	dispute,
	disputeComment,
	feedbackNote,
	review,
	reviewTask,
	snapshot,
	snapshotItem
} from './schema/review';
import {
	assignment,
	assignmentCandidate,
	candidate,
	study,
	studyModel,
	studyQuestion
} from './schema/study';
import { ranking, rankingEntry } from '../domain/studies/designs/ranking/schema';
import { score, scoringRun } from './schema/scoring';
import { session, user } from './schema/user';

export const userRelations = relations(user, ({ many }) => ({ sessions: many(session) }));
export const sessionRelations = relations(session, ({ one }) => ({
	user: one(user, { fields: [session.userId], references: [user.id] })
}));

export const datasetRelations = relations(dataset, ({ many }) => ({ items: many(qaItem) }));
export const importRelations = relations(importRecord, ({ one }) => ({
	dataset: one(dataset, { fields: [importRecord.datasetId], references: [dataset.id] }),
	creator: one(user, { fields: [importRecord.createdBy], references: [user.id] })
}));
export const qaItemRelations = relations(qaItem, ({ one, many }) => ({
	dataset: one(dataset, { fields: [qaItem.datasetId], references: [dataset.id] }),
	currentVersionRow: one(qaItemVersion, {
		fields: [qaItem.currentVersionId],
		references: [qaItemVersion.id]
	}),
	passage: one(passage, { fields: [qaItem.paragraphId], references: [passage.paragraphId] }),
	versions: many(qaItemVersion),
	responses: many(response),
	tasks: many(reviewTask),
	reviews: many(review),
	disputes: many(dispute),
	feedbackNotes: many(feedbackNote),
	adjudications: many(adjudication)
}));
export const qaItemVersionRelations = relations(qaItemVersion, ({ one }) => ({
	item: one(qaItem, { fields: [qaItemVersion.itemId], references: [qaItem.id] }),
	import: one(importRecord, { fields: [qaItemVersion.importId], references: [importRecord.id] })
}));
export const modelRelations = relations(model, ({ many }) => ({ responses: many(response) }));
export const responseRelations = relations(response, ({ one }) => ({
	item: one(qaItem, { fields: [response.itemId], references: [qaItem.id] }),
	model: one(model, { fields: [response.modelId], references: [model.id] })
}));

export const reviewTaskRelations = relations(reviewTask, ({ one, many }) => ({
	item: one(qaItem, { fields: [reviewTask.itemId], references: [qaItem.id] }),
	reviews: many(review)
}));
export const reviewRelations = relations(review, ({ one }) => ({
	task: one(reviewTask, { fields: [review.taskId], references: [reviewTask.id] }),
	item: one(qaItem, { fields: [review.itemId], references: [qaItem.id] }),
	reviewer: one(user, { fields: [review.reviewerId], references: [user.id] })
}));
export const adjudicationRelations = relations(adjudication, ({ one }) => ({
	item: one(qaItem, { fields: [adjudication.itemId], references: [qaItem.id] })
}));
export const feedbackNoteRelations = relations(feedbackNote, ({ one }) => ({
	item: one(qaItem, { fields: [feedbackNote.itemId], references: [qaItem.id] }),
	author: one(user, { fields: [feedbackNote.authorId], references: [user.id] })
}));
export const disputeRelations = relations(dispute, ({ one, many }) => ({
	item: one(qaItem, { fields: [dispute.itemId], references: [qaItem.id] }),
	raiser: one(user, { fields: [dispute.raisedBy], references: [user.id] }),
	comments: many(disputeComment)
}));
export const disputeCommentRelations = relations(disputeComment, ({ one }) => ({
	dispute: one(dispute, { fields: [disputeComment.disputeId], references: [dispute.id] }),
	author: one(user, { fields: [disputeComment.authorId], references: [user.id] })
}));
export const snapshotRelations = relations(snapshot, ({ many }) => ({ items: many(snapshotItem) }));
export const snapshotItemRelations = relations(snapshotItem, ({ one }) => ({
	snapshot: one(snapshot, { fields: [snapshotItem.snapshotId], references: [snapshot.id] }),
	version: one(qaItemVersion, {
		fields: [snapshotItem.itemVersionId],
		references: [qaItemVersion.id]
	})
}));

export const studyRelations = relations(study, ({ many }) => ({
	models: many(studyModel),
	questions: many(studyQuestion)
}));
export const studyModelRelations = relations(studyModel, ({ one }) => ({
	study: one(study, { fields: [studyModel.studyId], references: [study.id] }),
	model: one(model, { fields: [studyModel.modelId], references: [model.id] })
}));
export const studyQuestionRelations = relations(studyQuestion, ({ one, many }) => ({
	study: one(study, { fields: [studyQuestion.studyId], references: [study.id] }),
	item: one(qaItem, { fields: [studyQuestion.itemId], references: [qaItem.id] }),
	version: one(qaItemVersion, {
		fields: [studyQuestion.itemVersionId],
		references: [qaItemVersion.id]
	}),
	candidates: many(candidate),
	assignments: many(assignment)
}));
export const candidateRelations = relations(candidate, ({ one }) => ({
	question: one(studyQuestion, {
		fields: [candidate.studyQuestionId],
		references: [studyQuestion.id]
	}),
	model: one(model, { fields: [candidate.modelId], references: [model.id] })
}));
export const assignmentRelations = relations(assignment, ({ one, many }) => ({
	question: one(studyQuestion, {
		fields: [assignment.studyQuestionId],
		references: [studyQuestion.id]
	}),
	physician: one(user, { fields: [assignment.physicianId], references: [user.id] }),
	candidates: many(assignmentCandidate),
	ranking: one(ranking)
}));
export const assignmentCandidateRelations = relations(assignmentCandidate, ({ one }) => ({
	assignment: one(assignment, {
		fields: [assignmentCandidate.assignmentId],
		references: [assignment.id]
	}),
	candidate: one(candidate, {
		fields: [assignmentCandidate.candidateId],
		references: [candidate.id]
	})
}));
export const rankingRelations = relations(ranking, ({ one, many }) => ({
	assignment: one(assignment, { fields: [ranking.assignmentId], references: [assignment.id] }),
	entries: many(rankingEntry)
}));
export const rankingEntryRelations = relations(rankingEntry, ({ one }) => ({
	ranking: one(ranking, { fields: [rankingEntry.rankingId], references: [ranking.id] }),
	candidate: one(candidate, { fields: [rankingEntry.candidateId], references: [candidate.id] })
}));

export const scoringRunRelations = relations(scoringRun, ({ many }) => ({ scores: many(score) }));
export const scoreRelations = relations(score, ({ one }) => ({
	run: one(scoringRun, { fields: [score.runId], references: [scoringRun.id] }),
	response: one(response, { fields: [score.responseId], references: [response.id] })
}));
