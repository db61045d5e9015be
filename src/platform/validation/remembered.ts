/**
 * `judge` (a pure function of a string) answering again from memory for the last `size` values
 * it was asked about. A send's addresses are read by its validation, its recipient limit, its
 * recipient keys and its sender's id, and most sends repeat the sender and many recipients of
 * the sends before: parsing each once took a batch of 100 sends' address reading from 13% of the
 * API's CPU to a few (docs/performance.md). Values over `maxLength` are judged every time, so
 * the memory held stays under size × maxLength characters.
 */
export function remembered<T>(judge: (value: string) => T, size: number, maxLength: number): (value: string) => T {
  const answers = new Map<string, T>();
  return (value) => {
    if (value.length > maxLength) return judge(value);
    if (answers.has(value)) return answers.get(value)!;
    const answer = judge(value);
    // Forgetting the oldest answer first: a Map keeps its keys in insertion order.
    if (answers.size >= size) answers.delete(answers.keys().next().value!);
    answers.set(value, answer);
    return answer;
  };
}
