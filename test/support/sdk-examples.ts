// The TypeScript examples of a Markdown guide, run as a reader would run them: in order, as one
// module, with '@mailroom/sdk' being the repository's SDK.
import { readFileSync } from 'node:fs';
import * as ts from 'typescript';
import * as sdk from '../../packages/sdk/src';

/** The ```ts blocks of a Markdown file, in order. */
export function typescriptExamples(markdownFile: string): string[] {
  const markdown = readFileSync(markdownFile, 'utf8');
  return [...markdown.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((match) => match[1]);
}

/**
 * Runs `examples` as one module, each free name of `given` bound to its value (what the text tells
 * the reader to bring: a credential in `process.env`, a webhook's body), every `replaced` string
 * swapped for its value (the server's address); what they printed with console.log, a line each.
 */
export async function runExamples(
  examples: string[],
  given: Record<string, unknown>,
  replaced: Record<string, string> = {},
): Promise<string[]> {
  let source = examples.join('\n');
  for (const [from, to] of Object.entries(replaced)) {
    if (!source.includes(from)) throw new Error(`The examples do not mention ${from}`);
    source = source.replaceAll(from, to);
  }
  const { outputText, diagnostics } = ts.transpileModule(source, {
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 },
    reportDiagnostics: true,
  });
  if (diagnostics?.length) throw new Error(ts.formatDiagnostics(diagnostics, ts.createCompilerHost({})));
  const printed: string[] = [];
  const console = { log: (...values: unknown[]) => printed.push(values.map(String).join(' ')) };
  const require = (name: string) => {
    if (name !== '@mailroom/sdk') throw new Error(`The examples import ${name}, which is not the SDK`);
    return sdk;
  };
  const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor as new (
    ...parameters: string[]
  ) => (...values: unknown[]) => Promise<void>;
  const names = ['require', 'exports', 'console', ...Object.keys(given)];
  await new AsyncFunction(...names, outputText)(require, {}, console, ...Object.values(given));
  return printed;
}
