// axe-core on the page as it stands: no serious or critical violation of WCAG 2.1 A and AA.
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect } from '../fixtures';

export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/**
 * Fails with every offending node (rule, impact, selector, help) when axe finds a serious or
 * critical violation. `settle` waits for the network to go quiet first (pages that load more
 * after they render).
 */
export async function expectAccessible(
	page: Page,
	label = 'the page',
	options: { settle?: boolean } = {}
) {
	if (options.settle) await page.waitForLoadState('networkidle');
	const results = await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze();
	const found = results.violations
		.filter((v) => v.impact === 'serious' || v.impact === 'critical')
		.flatMap((v) =>
			v.nodes.map((n) => `${v.id} [${v.impact}] ${n.target.join(' > ')} — ${v.help} (${v.helpUrl})`)
		);
	expect(found, `axe on ${label}:\n${found.join('\n')}`).toEqual([]);
}
