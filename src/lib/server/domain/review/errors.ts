/** Why a verification action was refused; routes map `status` to an HTTP status. */
export type ReviewErrorCode =
	'invalid' | 'not_leased' | 'already_submitted' | 'not_found' | 'locked' | 'conflict';

const STATUS: Record<ReviewErrorCode, number> = {
	invalid: 400,
	not_leased: 409,
	already_submitted: 409,
	not_found: 404,
	locked: 409,
	conflict: 409
};

/** An expected refusal with a message the user can act on; nothing was changed. */
export class ReviewError extends Error {
	constructor(
		readonly code: ReviewErrorCode,
		message: string
	) {
		super(message);
		this.name = 'ReviewError';
	}

	get status(): number {
		return STATUS[this.code];
	}
}
