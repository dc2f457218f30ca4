import type { ShownWork } from '$lib/server/domain/review';

/**
 * What the review screen shows of its work, and nothing more — the same fields whether it is a
 * live task or a hidden gold check: the lease the form needs (its public id, never a task, item or
 * check id), the item's typed fields (not the stored record, its hash or provenance) and its
 * passage.
 */
export function itemOnScreen(shown: ShownWork) {
	const { lease, item, version, passage } = shown;
	return {
		lease: {
			publicId: lease.publicId,
			round: lease.round,
			leaseToken: lease.leaseToken,
			leasedAt: lease.leasedAt,
			leaseExpiresAt: lease.leaseExpiresAt
		},
		item: { paragraphId: item.paragraphId },
		version: { ...version },
		passage: passage && { ...passage }
	};
}
