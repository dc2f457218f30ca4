// Placeholder until the splitter lands (replaced by the real module).
export interface AnswerSentence {
	text: string;
	citations: string[];
}
export function splitAnswer(text: string): AnswerSentence[] {
	return [{ text, citations: [] }];
}
export function splitSentences(text: string): string[] {
	return [text];
}
