/** ClinIQLink's to_text: arrays joined by spaces, objects by generated_text or text (spec §3.1). */
export function toText(value: unknown): string {
	if (Array.isArray(value)) return value.map(toText).join(' ').trim();
	if (value && typeof value === 'object') {
		const o = value as Record<string, unknown>;
		if (o.generated_text) return toText(o.generated_text);
		if (o.text) return toText(o.text);
		return '';
	}
	if (value === null || value === undefined) return 'None';
	return String(value).trim();
}

/** to_text, then every closed <think>…</think> block removed (spec §3.2). */
export function responseText(value: unknown): string {
	return toText(value)
		.replace(/<think>[\s\S]*?<\/think>/gi, '')
		.trim();
}
