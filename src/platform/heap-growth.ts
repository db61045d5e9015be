import { setFlagsFromString } from 'node:v8';

// How far V8 lets the heap grow past what was live at its last full collection before it
// collects again (the flag is read each time it sets its next limit, after a collection). Left
// to itself it lets a small heap grow about 2.7 times: after 16 large batches read one after
// another, 97 MB live stood in a 264 MB heap (478 MB of RSS). By a fifth at most, such a flood
// stays under docs/api.md#sending's 300 MB (263–279 MB); but for the whole process it made full
// collections come so often that a send took 1.76 ms of the API's CPU instead of 1.29
// (bisected to the commit that set it, 2026-11-26). So a fifth holds only while large bodies
// are in the process, and a doubling otherwise: 1.23–1.31 ms a send, and a process that both
// accepts and delivers peaked at 213 MiB under 32 connections of sends (319 with V8's own
// factor, 161 with a fifth throughout; docs/performance.md).
const STEADY = '--heap-growing-percent=100';
const BOUNDED = '--heap-growing-percent=20';

let holders = 0;

/** The heap's growth between full collections when no large body is in the process: call once, at start. */
export function steadyHeapGrowth(): void {
  if (holders === 0) setFlagsFromString(STEADY);
}

/** Bounds the heap's growth until the function returned is called (once, however often called). */
export function boundHeapGrowth(): () => void {
  if (holders++ === 0) setFlagsFromString(BOUNDED);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    if (--holders === 0) setFlagsFromString(STEADY);
  };
}
