// What the learning platform is told, computed from the learner's copy alone: per idea of the
// practice (its problems on this page) and overall, how many problems are answered (checked
// at least once) and solved (right at least once). No DOM, no network.
//
//   summarize(copy, problems) -> { overall, ideas: [{ id, answered, solved, total, scaled, complete }] }
//   newAttempts(copy, problems, seen) -> the problems checked since `seen` (their counts)

/** One group's numbers: `scaled` is solved / total (0..1), `complete` when all are answered. */
function tally(id, problems, copy) {
  const total = problems.length;
  const answered = problems.filter((p) => copy.attemptCount(p.id) > 0).length;
  const solved = problems.filter((p) => copy.solved(p.id)).length;
  return { id, answered, solved, total, scaled: total === 0 ? 0 : solved / total, complete: total > 0 && answered === total };
}

/**
 * The scores of `problems` (practice.json problems, each with its `idea`; page order): per
 * idea in order of first appearance, and overall.
 */
export function summarize(copy, problems) {
  const ideas = [];
  for (const problem of problems) if (!ideas.includes(problem.idea)) ideas.push(problem.idea);
  return {
    overall: tally('overall', problems, copy),
    ideas: ideas.map((idea) => tally(idea, problems.filter((p) => p.idea === idea), copy)),
  };
}

/** True when two tallies would tell the platform the same. */
export const sameTally = (a, b) => Boolean(a && b) && a.answered === b.answered && a.solved === b.solved && a.total === b.total;

/**
 * The problems checked since `seen` ({ [id]: count already reported }): [{ problem, attempt,
 * count }] with the latest attempt (the copy keeps the last few, so a burst of checks between
 * two reports is reported as its latest). A count below `seen` (the learner started over or
 * imported another copy) is not an attempt: the caller takes the new count as seen.
 */
export function newAttempts(copy, problems, seen) {
  const out = [];
  for (const problem of problems) {
    const count = copy.attemptCount(problem.id);
    if (count > (seen[problem.id] ?? 0)) out.push({ problem, attempt: copy.lastAnswer(problem.id), count });
  }
  return out;
}

/** The counts to remember as reported, for every problem. */
export function countsOf(copy, problems) {
  return Object.fromEntries(problems.map((p) => [p.id, copy.attemptCount(p.id)]));
}

/** What the learner answered, as one short line (a choice's option id, a number's text, a widget claim). */
export function responseText(answer) {
  if (!answer) return '';
  if (typeof answer.option === 'string') return answer.option;
  if (typeof answer.text === 'string') return answer.text;
  return typeof answer.claim === 'string' ? answer.claim : '';
}
