// Keeps Tab and Shift+Tab cycling inside a modal dialog. A modal <dialog> makes the page behind it
// inert, but Tab from its last control would still leave for the browser's own controls.

const FOCUSABLE =
	'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** A Svelte attachment: Tab past the last control goes to the first, and back. */
export function trapFocus(node: HTMLElement) {
	const onkeydown = (e: KeyboardEvent) => {
		if (e.key !== 'Tab') return;
		const all = [...node.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(
			(el) => (el.offsetParent !== null || el === document.activeElement) && tabStop(node, el)
		);
		if (!all.length) return;
		const first = all[0];
		const last = all[all.length - 1];
		const active = document.activeElement;
		if (e.shiftKey && (active === first || !node.contains(active))) {
			e.preventDefault();
			last.focus();
		} else if (!e.shiftKey && (active === last || !node.contains(active))) {
			e.preventDefault();
			first.focus();
		}
	};
	node.addEventListener('keydown', onkeydown);
	return () => node.removeEventListener('keydown', onkeydown);
}

/** A radio group is one Tab stop: its checked radio, or its first when none is checked. */
function tabStop(node: HTMLElement, el: HTMLElement): boolean {
	if (!(el instanceof HTMLInputElement) || el.type !== 'radio' || !el.name) return true;
	const group = [...node.querySelectorAll<HTMLInputElement>('input[type="radio"]')].filter(
		(r) => r.name === el.name
	);
	const checked = group.find((r) => r.checked);
	return checked ? checked === el : group[0] === el;
}
