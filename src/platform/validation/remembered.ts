/**
 * `judge` (a pure function of a string) answering again from memory for the last `size` values
 * it was asked about. A send's addresses are read by its validation, its recipient limit, its
 * recipient keys and its sender's id, and most sends repeat the sender and many recipients of
 * the sends before: parsing each once took a batch of 100 sends' address reading from 13% of the
 * API's CPU to a few (docs/performance.md). Values over `maxLength` are judged every time.
 *
 * A value kept is a copy of its own: a string cut from a larger one (an address matched in a
 * bounce's text) would otherwise keep that whole text alive in V8, and the answer (an address cut
 * from the value) with it. So the memory held stays near size × maxLength characters.
 */
export function remembered<T>(judge: (value: string) => T, size: number, maxLength: number): (value: string) => T {
  const answers = new Map<string, T>();
  return (value) => {
    if (value.length > maxLength) return judge(value);
    if (answers.has(value)) return answers.get(value)!;
    const own = Buffer.from(value, 'utf8').toString('utf8');
    // A lone surrogate does not survive UTF-8: such a value is judged as given, and not kept.
    if (own !== value) return judge(value);
    const answer = judge(own);
    // Forgetting the oldest answer first: a Map keeps its keys in insertion order.
    if (answers.size >= size) answers.delete(answers.keys().next().value!);
    answers.set(own, answer);
    return answer;
  };
}
