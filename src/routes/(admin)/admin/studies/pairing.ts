// The pairwise fields' limits and the pair count the create form shows, safe for the browser
// (study-form.ts, which reads the posted form, is server code).

/** Most pairs a question can have: every pair of 26 models and the reference, C(27, 2). */
export const MAX_PAIRS_PER_QUESTION = 351;
/** Longest pairing seed, in characters. */
export const MAX_PAIR_SEED = 100;

/** How many pairs `answers` answers of one question make: C(n, 2). */
export const pairsOf = (answers: number) => (answers * (answers - 1)) / 2;
