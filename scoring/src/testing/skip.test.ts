import { describe, expect, it } from 'vitest';
import { skippedTitle, skipReason } from './skip';

describe('skipped suites say why', () => {
	it('adds the reason to the title only when the suite is skipped, and reads it back', () => {
		expect(skippedTitle('conformance', null)).toBe('conformance');
		const title = skippedTitle('conformance', 'no sample beside the checkout');
		expect(skipReason(`${title} scores every file`)).toBe('no sample beside the checkout');
		expect(skipReason('conformance scores every file')).toBeNull();
	});
});
