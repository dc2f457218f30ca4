// The keyboard rules shared by the review screen's shortcuts.

/** Whether a key press goes into a text field (shortcut letters must not fire there). */
export function isTyping(target: EventTarget | null): boolean {
	const el = target as HTMLElement | null;
	if (!el || !el.tagName) return false;
	if (el.isContentEditable || el.tagName === 'TEXTAREA' || el.tagName === 'SELECT') return true;
	return el.tagName === 'INPUT' && !['radio', 'checkbox'].includes((el as HTMLInputElement).type);
}

/** Whether Enter on the target already does something of its own (a button, a link, a summary). */
export function activatesOnEnter(target: EventTarget | null): boolean {
	const el = target as HTMLElement | null;
	return Boolean(el?.closest?.('button, a[href], summary, select'));
}

/** Whether a key press happens inside an open dialog (the page's shortcuts pause meanwhile). */
export function inDialog(target: EventTarget | null): boolean {
	return Boolean((target as HTMLElement | null)?.closest?.('dialog'));
}
