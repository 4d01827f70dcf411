// The sentence's words as tokens (no DOM): an author who rewrites the sentence takes its
// words as the table's columns in one step. Words and punctuation marks are tokens, as in
// the shipped worlds ("Der Koch, der …" -> Der | Koch | , | der …). A token that is still
// there keeps its numbers and its role: old tokens and new words are matched by their
// longest common subsequence, so inserting a word in the middle moves nothing else.

const TOKEN = /[\p{L}\p{N}\p{M}'’-]+|[^\s\p{L}\p{N}\p{M}]/gu;

/** The sentence's tokens: words (letters, digits, apostrophes, hyphens) and single marks. */
export function splitSentence(text) {
  return String(text ?? '').match(TOKEN) ?? [];
}

/**
 * For each new word, the index of the old token it is (or -1 for a new word): a longest
 * common subsequence of the two lists, by exact text.
 */
export function alignTokens(oldTokens, newTokens) {
  const n = oldTokens.length;
  const m = newTokens.length;
  // lengths[i][j]: the LCS of oldTokens[i..] and newTokens[j..].
  const lengths = Array.from({ length: n + 1 }, () => new Array(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lengths[i][j] = oldTokens[i] === newTokens[j] ? lengths[i + 1][j + 1] + 1 : Math.max(lengths[i + 1][j], lengths[i][j + 1]);
    }
  }
  const from = new Array(m).fill(-1);
  for (let i = 0, j = 0; i < n && j < m;) {
    if (oldTokens[i] === newTokens[j]) {
      from[j] = i;
      i += 1;
      j += 1;
    } else if (lengths[i + 1][j] >= lengths[i][j + 1]) i += 1;
    else j += 1;
  }
  return from;
}
