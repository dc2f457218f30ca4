import { describe, expect, it } from 'vitest';
import {
	countPhrase,
	formatCount,
	formatDate,
	formatDateTime,
	formatDateTimeSeconds,
	isoDate,
	plural
} from './format';

describe('formatting', () => {
	const at = new Date(2026, 10, 24, 14, 5, 9);

	it('writes dates the same way on every page', () => {
		expect(formatDateTime(at)).toBe('24 Nov 2026, 14:05');
		expect(formatDateTimeSeconds(at)).toBe('24 Nov 2026, 14:05:09');
		expect(formatDate(at)).toBe('24 Nov 2026');
		expect(formatDateTime(at.toISOString())).toBe('24 Nov 2026, 14:05');
		expect(isoDate(Date.UTC(2026, 0, 2, 23, 0))).toBe('2026-01-02');
	});

	it('groups thousands and says one or many', () => {
		expect(formatCount(1234567)).toBe('1,234,567');
		expect(plural(1, 'item')).toBe('1 item');
		expect(plural(2500, 'item')).toBe('2,500 items');
		expect(plural(2, 'study', 'studies')).toBe('2 studies');
	});

	it('says whether a count is exact, an estimate or a lower bound', () => {
		expect(countPhrase({ kind: 'exact', n: 1 }, 'item')).toBe('1 item');
		expect(countPhrase({ kind: 'exact', n: 21 }, 'item')).toBe('21 items');
		expect(countPhrase({ kind: 'about', n: 48900 }, 'item')).toBe('about 48,900 items');
		expect(countPhrase({ kind: 'more-than', n: 1000 }, 'item')).toBe('more than 1,000 items');
	});
});
