import { Command, Option } from 'commander';
import type { PlatformClient } from '@platform-sdk/client';
import { Output } from './output.js';
import { clientFor, resolveProfile, type Profile } from './profiles.js';

/** What every command's handler gets. */
export interface Context {
  out: Output;
  /** The connection (profile and environment), resolved when first asked for. */
  profile(): Profile & { name: string };
  client(): PlatformClient;
  /** Aborted on Ctrl-C: in-flight requests and waits stop. */
  signal: AbortSignal;
}

interface CommonOptions {
  json?: boolean;
  profile?: string;
}

/** The exit code the last command's handler chose; `runCli` reads it, so nothing sets process.exitCode but main. */
export const outcome = { code: 0 };

const interrupted = new AbortController();
process.once('SIGINT', () => interrupted.abort(new Error('interrupted')));

/** A command with the options every command has (`--json`, `--profile`) and its examples under --help. */
export function command(name: string, description: string, examples: string[]): Command {
  return new Command(name)
    .description(description)
    .addOption(new Option('--json', 'print the result as JSON (for scripts)'))
    .addOption(new Option('--profile <name>', 'the saved login to use (default: PLATFORM_PROFILE, else "default")'))
    .addHelpText('after', `\nExamples:\n${examples.map((e) => `  $ ${e}`).join('\n')}\n`);
}

/** Groups subcommands (`platform workflows …`): help with examples, no action of its own. */
export function group(name: string, description: string, examples: string[]): Command {
  return new Command(name).description(description).addHelpText('after', `\nExamples:\n${examples.map((e) => `  $ ${e}`).join('\n')}\n`);
}

/**
 * The action of a command: `run(context, ...arguments, options)`; what it returns is the exit
 * code (0 when nothing).
 */
export function handle<O, A extends string[]>(run: (ctx: Context, options: O, ...args: A) => Promise<number | void>) {
  return async (...received: unknown[]): Promise<void> => {
    const cmd = received.at(-1) as Command;
    const options = cmd.opts<O & CommonOptions>();
    const args = received.slice(0, cmd.registeredArguments.length) as A;
    let profile: (Profile & { name: string }) | undefined;
    let client: PlatformClient | undefined;
    const ctx: Context = {
      out: new Output(options.json === true),
      profile: () => (profile ??= resolveProfile(options.profile)),
      client: () => (client ??= clientFor(ctx.profile())),
      signal: interrupted.signal,
    };
    outcome.code = (await run(ctx, options, ...args)) ?? 0;
  };
}
